import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodeSchema, RpcResponseSchema } from '../../../../electron/contract/index.js';
import { couldSucceed, expectedId, payloadArb } from '../../../support/rpcPayloads.js';
import { openRaw, startHarness, TOKEN, type Harness, type RawSocket } from './gatewayHarness.js';

describe('ws gateway under malformed input', () => {
  let harness: Harness;
  let raw: RawSocket;

  beforeAll(async () => {
    harness = await startHarness();
    raw = await openRaw(harness.gateway.url, { headers: { authorization: `Bearer ${TOKEN}` } });
  });
  afterAll(async () => {
    raw.ws.close();
    await harness.gateway.close();
  });

  it('answers each of 1,000 malformed payloads with exactly one typed response on one connection', async () => {
    const handled = harness.dispatcher.methods();
    let sent = 0;
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(payloadArb, async (text) => {
        sent++;
        raw.ws.send(text);
        const response = await raw.next();
        expect(RpcResponseSchema.safeParse(response).success).toBe(true);
        const frame = response as { id: unknown; error?: { code: unknown }; result?: unknown };
        expect(frame.id).toEqual(expectedId(text));
        if (frame.error) expect(ErrorCodeSchema.options).toContain(frame.error.code);
        else expect(couldSucceed(text, handled)).toBe(true);
        outcomes.add(frame.error ? String(frame.error.code) : 'result');
      }),
      { numRuns: 1000 },
    );

    raw.ws.send(JSON.stringify({ id: 'after', method: 'system.info' }));
    expect(await raw.next()).toMatchObject({ id: 'after', result: { name: 'agent-desk', pid: process.pid } });
    // Nothing unanswered or answered twice: the queue is empty and the socket still open.
    expect(raw.queued()).toEqual([]);
    expect(raw.ws.readyState).toBe(raw.ws.OPEN);
    expect(sent).toBeGreaterThanOrEqual(1000);
    // The generators reach past frame validation into method, scope and params checks.
    expect([...outcomes]).toEqual(expect.arrayContaining(['invalid_request', 'method_not_found', 'invalid_params']));
  });
});
