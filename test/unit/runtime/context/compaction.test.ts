import { describe, expect, it } from 'vitest';
import { buildContext, DEFAULT_CONTEXT, type StablePrefix } from '../../../../electron/runtime/context/contextBuilder.js';
import { Conversation } from '../../../../electron/runtime/context/conversation.js';
import type { Exchange } from '../../../../electron/runtime/context/exchange.js';

const prefix: StablePrefix = { systemPrompt: 'system', tools: [], goal: 'read everything' };
const step = (n: number, userMessages?: string[]): Exchange => ({
  text: '',
  calls: [{ id: `c${n}`, name: 'fs_read', argumentsText: `{"n":${n}}`, tool: 'fs.read', index: n, status: 'ok', result: 'x'.repeat(3000) }],
  ...(userMessages && { userMessages }),
});

describe('compaction keeps what the user said', () => {
  it('a message in a compacted step stays in the request word for word, from the incremental fold and from scratch alike', () => {
    const exchanges = Array.from({ length: 40 }, (_, n) => step(n, n === 2 ? ['Use the staging database, never production.'] : undefined));
    const conversation = new Conversation([], DEFAULT_CONTEXT.resultCharLimit);
    for (const e of exchanges) conversation.push(e);
    for (const built of [buildContext(prefix, conversation), buildContext(prefix, exchanges)]) {
      expect(built.compactedExchanges).toBeGreaterThan(2);
      const text = JSON.stringify(built.request.messages);
      expect(text).toContain('the user said: Use the staging database, never production.');
      expect(text.match(/never production/g)).toHaveLength(1);
    }
  });
});
