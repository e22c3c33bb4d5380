import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodeSchema, RpcResponseSchema } from '../../../../electron/contract/index.js';
import { startWsGateway, type WsGateway } from '../../../../electron/capabilities/transports/wsServer.js';
import { openRaw, type RawSocket } from '../../capabilities/transports/gatewayHarness.js';
import { couldSucceed, expectedId, payloadArb } from '../../../support/rpcPayloads.js';
import { createPlaybookTask, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

const TOKEN = 'fuzz-token-0123456789';

// The same storm as the transport test, against the real runtime's handlers and SQLite store.
describe('the runtime gateway under 1,000 malformed payloads', () => {
  let h: TestRuntime;
  let gateway: WsGateway;
  let raw: RawSocket;

  beforeAll(async () => {
    h = openTestRuntime();
    gateway = await startWsGateway({ token: TOKEN, dispatcher: h.rt.dispatcher, bus: h.rt.bus, log: () => undefined });
    raw = await openRaw(gateway.url, { headers: { authorization: `Bearer ${TOKEN}` } });
  });
  afterAll(async () => {
    raw.ws.close();
    await gateway.close();
    await h.cleanup();
  });

  it('answers each with one typed response, stores nothing, and keeps serving', async () => {
    const existing = await createPlaybookTask(h.rt, 'name: keep\nsteps:\n  - { tool: echo, args: { value: 1 } }\n');
    const handled = h.rt.dispatcher.methods();
    await fc.assert(
      fc.asyncProperty(payloadArb, async (text) => {
        raw.ws.send(text);
        const response = await raw.next();
        expect(RpcResponseSchema.safeParse(response).success).toBe(true);
        const frame = response as { id: unknown; error?: { code: unknown; message: unknown } };
        expect(frame.id).toEqual(expectedId(text));
        if (frame.error) {
          expect(ErrorCodeSchema.options).toContain(frame.error.code);
          expect(frame.error.code).not.toBe('internal');
        } else expect(couldSucceed(text, handled)).toBe(true);
      }),
      { numRuns: 1000 },
    );
    raw.ws.send(JSON.stringify({ id: 'after', method: 'tasks.get', params: { taskId: existing.id } }));
    expect(await raw.next()).toMatchObject({ id: 'after', result: { task: { id: existing.id, state: 'queued' } } });
    expect((await h.rt.store.tasks.list({ limit: 10 })).map((t) => t.id)).toEqual([existing.id]);
  });
});
