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

  it('answers params nested 10,000 levels deep (arrays or objects) with invalid_params, not a stack overflow', async () => {
    const depth = 10_000;
    const nested = { arrays: `${'['.repeat(depth)}${']'.repeat(depth)}`, objects: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` };
    const check = (deep: string) =>
      `{"checks":[{"type":"json_path","file":"a.json","path":"$.a","equals":${deep}}],"goal":"g","start":false}`;
    for (const [kind, deep] of Object.entries(nested)) {
      const frames = [
        `{"id":"whole","method":"tasks.create","params":${deep}}`,
        `{"id":"checks","method":"tasks.create","params":${check(deep)}}`,
        `{"id":"keyed","method":"tasks.create","params":${check(deep)},"idempotencyKey":"deep-${kind}"}`,
        `{"id":"settings","method":"settings.set","params":{"config":{"policy":${deep}}},"idempotencyKey":"deep-${kind}"}`,
      ];
      const answers: Record<string, unknown> = {};
      for (const frame of frames) {
        raw.ws.send(frame);
        const response = (await raw.next()) as { id: string; error?: { code: string; message: string } };
        answers[response.id] = response.error;
      }
      const refused = expect.objectContaining({ code: 'invalid_params', message: expect.stringContaining('nest deeper than 64 levels') });
      expect(answers, kind).toEqual({ whole: refused, checks: refused, keyed: refused, settings: refused });
    }
    raw.ws.send(JSON.stringify({ id: 'after', method: 'system.info', params: {} }));
    expect(await raw.next()).toMatchObject({ id: 'after', result: { name: 'agent-desk' } });
  });
});
