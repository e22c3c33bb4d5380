import { describe, expect, it } from 'vitest';
import { buildContext, DEFAULT_CONTEXT, type StablePrefix } from '../../../../electron/runtime/context/contextBuilder.js';
import { compactExchanges } from '../../../../electron/runtime/context/compaction.js';
import { Conversation } from '../../../../electron/runtime/context/conversation.js';
import type { Exchange, ExchangeCall } from '../../../../electron/runtime/context/exchange.js';
import { estimateWork } from '../../../../electron/runtime/context/tokenEstimate.js';

const prefix: StablePrefix = {
  systemPrompt: 'system',
  tools: [{ name: 'fs_read', description: 'read', inputSchema: { type: 'object' } }],
  goal: 'read everything',
};
const image = { type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0K' };

/** Step n of a varied history: reads, failures, screenshots, two calls in one turn, a cache hit. */
function exchangeAt(n: number): Exchange {
  const call = (k: number): ExchangeCall => ({
    id: `c${n}_${k}`,
    name: n % 3 === 0 ? 'fs_read' : 'http_request',
    argumentsText: JSON.stringify({ path: `f${n}.txt`, k }),
    tool: n % 3 === 0 ? 'fs.read' : 'http.request',
    index: n * 2 + k,
    status: 'pending',
    result: '(not finished)',
  });
  const calls = n % 7 === 0 ? [call(0), call(1)] : [call(0)];
  if (n % 11 === 0) calls.push({ id: `hit${n}`, name: 'fs_read', argumentsText: '{}', tool: 'fs.read', status: 'ok', result: 'cached' });
  return { text: n % 5 === 0 ? `thinking about ${n}` : '', calls, ...(n % 13 === 0 && { userMessages: [`message ${n}`] }) };
}

/** What the step of a call ends up showing. */
function outcomeOf(call: ExchangeCall, n: number): Pick<ExchangeCall, 'status' | 'result' | 'images'> {
  if (n % 4 === 1) return { status: 'error', result: `ENOENT: f${n}.txt` };
  return { status: 'ok', result: 'x'.repeat(100 + ((n * 37) % 3000)), ...(n % 6 === 0 && { images: [image] }) };
}

/** Plain copies: what the array form of buildContext sees, built from scratch. */
const copy = (exchanges: readonly Exchange[]): Exchange[] => JSON.parse(JSON.stringify(exchanges)) as Exchange[];

describe('conversation (incremental context)', () => {
  it('builds byte for byte the request a from-scratch build gives, at every step, as calls settle late and out of order', () => {
    const conversation = new Conversation([], DEFAULT_CONTEXT.resultCharLimit);
    for (let n = 0; n < 300; n++) {
      conversation.push(exchangeAt(n));
      // Settle the calls of two steps ago, and once in a while revive an old failure (a re-run after "uncertain").
      for (const call of conversation.exchanges[n - 2]?.calls ?? [])
        if (call.status === 'pending') conversation.settle(call, outcomeOf(call, n));
      if (n % 50 === 49) {
        const old = conversation.exchanges[n - 45]!.calls[0]!;
        conversation.settle(old, { status: 'ok', result: `re-run ${n}` });
      }
      const scratch = n % 9 === 0 ? [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'scratch' }] }] : [];
      const incremental = buildContext(prefix, conversation, scratch);
      const fromScratch = buildContext(prefix, copy(conversation.exchanges), scratch);
      expect(JSON.stringify(incremental.request)).toBe(JSON.stringify(fromScratch.request));
      expect(incremental.compactedExchanges).toBe(fromScratch.compactedExchanges);
      expect(incremental.totalTokens).toBe(fromScratch.totalTokens);
    }
    expect(buildContext(prefix, conversation).compactedExchanges).toBeGreaterThan(250);
  });

  it('folds the summary forward to the same text as compacting from the records', () => {
    const conversation = new Conversation();
    for (let n = 0; n < 120; n++) {
      const exchange = exchangeAt(n);
      conversation.push(exchange);
      for (const call of exchange.calls) if (call.status === 'pending') conversation.settle(call, outcomeOf(call, n));
      for (const cut of [0, Math.floor(n / 2), n + 1]) {
        expect(conversation.summary(cut, DEFAULT_CONTEXT)).toBe(
          compactExchanges(copy(conversation.exchanges.slice(0, cut)), DEFAULT_CONTEXT),
        );
      }
    }
  });

  it('estimates a bounded amount per step however long the history (no return to quadratic work)', () => {
    const perStep = (steps: number): { calls: number; chars: number } => {
      const conversation = new Conversation([], DEFAULT_CONTEXT.resultCharLimit);
      let calls = 0;
      let chars = 0;
      for (let n = 0; n < steps; n++) {
        conversation.push(exchangeAt(n));
        for (const call of conversation.exchanges[n - 1]?.calls ?? [])
          if (call.status === 'pending') conversation.settle(call, outcomeOf(call, n));
        const before = { ...estimateWork };
        buildContext(prefix, conversation);
        calls += estimateWork.calls - before.calls;
        chars += estimateWork.chars - before.chars;
      }
      return { calls: calls / steps, chars: chars / steps };
    };
    const short = perStep(200);
    const long = perStep(2000);
    // Estimating is done when an exchange is added or changes, never again for the whole history.
    expect(long.calls).toBeLessThanOrEqual(short.calls * 1.1 + 0.5);
    expect(long.chars).toBeLessThanOrEqual(short.chars * 1.1 + 100);
  });
});
