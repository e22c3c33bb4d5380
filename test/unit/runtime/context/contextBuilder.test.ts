import { describe, expect, it } from 'vitest';
import { benchContext } from '../../../../electron/runtime/context/contextBench.js';
import { buildContext, DEFAULT_CONTEXT, type StablePrefix } from '../../../../electron/runtime/context/contextBuilder.js';
import type { Exchange } from '../../../../electron/runtime/context/exchange.js';

const prefix: StablePrefix = {
  systemPrompt: 'system',
  tools: [
    { name: 'b_tool', description: 'b', inputSchema: {} },
    { name: 'a_tool', description: 'a', inputSchema: {} },
  ],
  projectContext: 'Use tabs.',
  memory: 'User likes tea.',
  goal: 'do it',
};

const exchange = (n: number, result = 'x'.repeat(2000), images?: Exchange['calls'][number]['images']): Exchange => ({
  text: '',
  calls: [
    { id: `c${n}`, name: 'a_tool', argumentsText: `{"n":${n}}`, tool: 'a.tool', index: n, status: 'ok', result, ...(images && { images }) },
  ],
});

describe('context builder', () => {
  it('keeps the stable prefix byte-identical as steps accumulate, with tools sorted and AGENTS.md and memory in it', () => {
    const history = Array.from({ length: 40 }, (_, i) => exchange(i));
    const requests = [0, 5, 17, 40].map((n) => buildContext(prefix, history.slice(0, n)).request);
    const prefixes = requests.map((r) => JSON.stringify([r.system, r.tools, r.messages[0]]));
    expect(new Set(prefixes).size).toBe(1);
    expect(requests[0]!.tools.map((t) => t.name)).toEqual(['a_tool', 'b_tool']);
    expect(requests[0]!.system).toContain('Use tabs.');
    expect(requests[0]!.system).toContain('User likes tea.');
  });

  it('compacts older steps deterministically from their records once over the token threshold', () => {
    const history = Array.from({ length: 30 }, (_, i) => exchange(i));
    const a = buildContext(prefix, history);
    const b = buildContext(prefix, history);
    expect(JSON.stringify(a.request)).toBe(JSON.stringify(b.request));
    expect(a.compactedExchanges).toBe(20);
    const summary = (a.request.messages[1] as { content: { text: string }[] }).content[0]!.text;
    expect(summary).toMatch(/^Earlier steps \(compacted/);
    expect(summary).toContain('#20 a.tool {"n":19} → ok');
    expect(summary).toContain('8 older calls (8 ok, 0 failed): a.tool×8');
    // the 10 newest stay verbatim: one assistant + one tool message each
    expect(a.request.messages.filter((m) => m.role === 'tool')).toHaveLength(10);
  });

  it('sends the whole history while under the threshold', () => {
    const history = Array.from({ length: 3 }, (_, i) => exchange(i, 'short'));
    const built = buildContext(prefix, history);
    expect(built.compactedExchanges).toBe(0);
    expect(built.request.messages).toHaveLength(1 + 3 * 2);
  });

  it('keeps only the last N images and notes the ones left out', () => {
    const image = { type: 'image' as const, mediaType: 'image/png', data: 'AAAA' };
    const history = Array.from({ length: 4 }, (_, i) => exchange(i, 'shot', [image]));
    const built = buildContext(prefix, history, [], { ...DEFAULT_CONTEXT, maxImages: 2 });
    const tools = built.request.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => (m.role === 'tool' ? (m.images?.length ?? 0) : 0))).toEqual([0, 0, 1, 1]);
    expect(tools[0]!.role === 'tool' && tools[0]!.content).toContain('1 older screenshot(s) omitted');
  });

  it('meets the context-economy goals on the scripted 200-step task (ratio ≤ 0.25, repeated-prefix share ≥ 0.85)', () => {
    const figures = benchContext(200);
    expect(figures.ratio).toBeLessThanOrEqual(0.25);
    expect(figures.stablePrefixShare).toBeGreaterThanOrEqual(0.85);
    expect(figures.promptTokensTotal).toBeLessThan(figures.naivePromptTokensTotal);
  });
});
