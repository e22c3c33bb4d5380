import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c';

describe('secret redaction', () => {
  it('a secret input never reaches the database files in clear, but the tool still receives it', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: req.headers.authorization }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      h = openTestRuntime({ config: { policy: { networkAllow: ['127.0.0.1:*'] } } });
      const source = `
name: uses-a-key
inputs:
  apiKey: { type: string, secret: true, required: true }
steps:
  - id: call
    tool: http.request
    args:
      url: http://127.0.0.1:${port}/me
      headers: { authorization: "Bearer \${inputs.apiKey}" }
  - tool: fs.write
    args: { path: note.txt, content: "key was \${inputs.apiKey}" }
`;
      const task = await h.rt.engine.create({
        title: 'k',
        plan: { kind: 'playbook', source, baseDir: h.home },
        inputs: {},
        secretNames: ['apiKey'],
      });
      const done = await h.rt.engine.run(task.id, { secrets: { apiKey: SECRET } });
      expect(done.state).toBe('succeeded');
      expect(seen).toEqual([`Bearer ${SECRET}`]);
      expect(done.inputs).toEqual({ apiKey: '[secret:apiKey]' });

      const steps = h.rt.engine.steps(task.id);
      expect(JSON.stringify((await steps)[0]!.args)).toContain('[secret:apiKey]');
      expect(JSON.stringify((await steps)[0]!.output)).toContain('Bearer [secret:apiKey]');
      const trace = JSON.stringify((await h.rt.trace.page(task.id, 0, 1000)).events);
      expect(trace).toContain('[secret:apiKey]');
      expect(trace).not.toContain(SECRET);

      await h.rt.close();
      for (const file of readdirSync(h.home).filter((f) => f.startsWith('agent-desk.db'))) {
        expect(readFileSync(path.join(h.home, file)).includes(SECRET), `${file} holds the secret`).toBe(false);
      }
    } finally {
      server.close();
    }
  });

  it('a resumed task without its secret stops with a clear message instead of sending a placeholder', async () => {
    h = openTestRuntime();
    const source =
      'name: s\ninputs:\n  token: { type: string, secret: true }\nsteps:\n  - { tool: echo, args: { value: "${inputs.token}" } }\n';
    const task = await h.rt.engine.create({
      title: 's',
      plan: { kind: 'playbook', source, baseDir: h.home },
      inputs: {},
      secretNames: ['token'],
    });
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('waiting_user');
    expect(done.stateReason).toBe('secret input "token" is not stored: resume with --input token=… or AGENT_DESK_INPUT_TOKEN');
  });
});
