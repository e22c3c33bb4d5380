import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlaybookTask, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime | undefined;
let server: Server | undefined;
afterEach(async () => {
  await h?.cleanup();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  h = server = undefined;
});

/** An API that applies every POST it receives and then never answers (its effect is real, its answer lost). */
async function swallowingApi(): Promise<{ url: string; effects: string[] }> {
  const effects: string[] = [];
  server = createServer((req) => {
    if (req.method === 'POST') effects.push(req.url ?? '');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, effects };
}

const trusting = { policy: { rules: { allow: ['http.request(domain:127.0.0.1)'] }, networkAllow: ['127.0.0.1:*'] } };

describe('an HTTP side effect whose answer is lost', () => {
  it('a POST without an idempotency key that times out is uncertain and waits for the user; nothing is sent twice', async () => {
    const api = await swallowingApi();
    h = openTestRuntime({ config: trusting });
    const task = await createPlaybookTask(
      h.rt,
      `name: order\nsteps:\n  - tool: http.request\n    retries: 2\n    args: { method: POST, url: "${api.url}/orders", body: { item: widget }, timeoutMs: 300 }\n`,
    );
    const waiting = await h.rt.engine.run(task.id);
    expect(waiting.state).toBe('waiting_user');
    expect(waiting.stateReason).toMatch(
      /step 1 \(http\.request\) was interrupted and may or may not have taken effect \(POST .* timed out after 300 ms\)/,
    );
    expect((await h.rt.engine.steps(task.id)).map((s) => s.status)).toEqual(['uncertain']);
    expect(api.effects).toEqual(['/orders']); // `retries: 2` did not repeat it

    const failed = await h.rt.engine.run(task.id, { resolution: 'fail' });
    expect(failed.state).toBe('failed');
    expect(api.effects).toEqual(['/orders']);
  });

  it('the same POST with an idempotency key is retried as before (the key makes a repeat harmless)', async () => {
    const api = await swallowingApi();
    h = openTestRuntime({ config: trusting });
    const task = await createPlaybookTask(
      h.rt,
      `name: order\nsteps:\n  - tool: http.request\n    retries: 1\n    args: { method: POST, url: "${api.url}/orders", idempotencyKey: true, timeoutMs: 300 }\n`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(api.effects).toEqual(['/orders', '/orders']);
  });
});
