import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../electron/runtime/clock.js';
import { AnthropicProvider } from '../../../../electron/runtime/models/anthropicMessages.js';
import { RetryingProvider } from '../../../../electron/runtime/models/retry.js';
import type { ModelMessage, ModelRequest } from '../../../../electron/runtime/models/types.js';
import { ModelServer } from '../../../support/modelServer.js';

const base: ModelRequest = {
  system: 'stable system prompt',
  tools: [
    { name: 'a_tool', description: 'a', inputSchema: { type: 'object' } },
    { name: 'b_tool', description: 'b', inputSchema: { type: 'object' } },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Goal: click OK' }] }],
  stableMessages: 1,
};

type Block = { type: string; cache_control?: unknown; content?: unknown };

describe('Anthropic Messages adapter (real SDK against a wire-protocol server)', () => {
  let server: ModelServer;
  beforeEach(async () => {
    server = await new ModelServer().start();
  });
  afterEach(async () => server.close());
  const provider = () => new AnthropicProvider({ model: 'claude-test', baseURL: server.origin, apiKey: 'sk-ant-test' });

  it('puts cache_control breakpoints on the stable prefix (last tool, system, goal) and on the newest message', async () => {
    server.script('messages', { text: 'ok' });
    const history: ModelMessage[] = [
      ...base.messages,
      { role: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'a_tool', argumentsText: '{}' }] },
      { role: 'tool', callId: 't1', name: 'a_tool', content: 'result', isError: false },
    ];
    await provider().complete({ ...base, messages: history }, { signal: new AbortController().signal });
    const body = server.received('messages')[0]!.body as {
      system: Block[];
      tools: Block[];
      messages: { role: string; content: Block[] }[];
    };
    const headers = server.received('messages')[0]!.headers;
    expect(`${headers['x-api-key'] ?? ''} ${headers.authorization ?? ''}`).toContain('sk-ant-test');
    expect(body.system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tools.map((t) => t.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(body.messages[0]!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages.at(-1)!.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 't1',
      cache_control: { type: 'ephemeral' },
    });
    const breakpoints = JSON.stringify(body).split('"cache_control"').length - 1;
    expect(breakpoints).toBeLessThanOrEqual(4); // the API's limit
  });

  it('streams text and tool use, and reports cached input tokens', async () => {
    server.script('messages', {
      text: 'Let me look.',
      toolCalls: [{ name: 'a_tool', arguments: { x: 1 } }],
      usage: { input: 50, output: 9, cached: 400 },
    });
    const deltas: string[] = [];
    const answer = await provider().complete(base, { signal: new AbortController().signal, onText: (d) => deltas.push(d) });
    expect(deltas.join('')).toBe('Let me look.');
    expect(answer.toolCalls).toEqual([{ id: 'toolu_1', name: 'a_tool', argumentsText: '{"x":1}' }]);
    expect(answer.usage).toEqual({ inputTokens: 450, outputTokens: 9, cachedInputTokens: 400 });
    expect(answer.stopReason).toBe('tool_calls');
  });

  it('offers the computer-use tool and returns a sequence of computer actions', async () => {
    server.script(
      'messages',
      { computer: [{ action: { action: 'screenshot' } }] },
      { computer: [{ action: { action: 'left_click', coordinate: [640, 400] } }] },
      { computer: [{ action: { action: 'type', text: 'hello' } }] },
      { text: 'Typed hello.' },
    );
    const request: ModelRequest = { ...base, computer: { width: 1280, height: 800 } };
    const actions: unknown[] = [];
    let messages = [...request.messages];
    for (let turn = 0; turn < 4; turn++) {
      const answer = await provider().complete({ ...request, messages }, { signal: new AbortController().signal });
      if (answer.toolCalls.length === 0) break;
      const call = answer.toolCalls[0]!;
      expect(call.name).toBe('computer');
      actions.push(JSON.parse(call.argumentsText));
      messages = [
        ...messages,
        { role: 'assistant', text: answer.text, toolCalls: answer.toolCalls },
        {
          role: 'tool',
          callId: call.id,
          name: call.name,
          content: 'done',
          isError: false,
          images: [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
        },
      ];
    }
    // The provider's own actions arrive as the one computer action the runtime executes…
    expect(actions).toEqual([
      { action: 'screenshot' },
      { action: 'click', x: 640, y: 400, button: 'left', count: 1 },
      { action: 'type', text: 'hello' },
    ]);
    // …and go back to the model in its own shape.
    const history = server.received('messages')[3]!.body.messages as { content: { type: string; input?: unknown }[] }[];
    const uses = history.flatMap((m) => m.content.filter((b) => b.type === 'tool_use').map((b) => b.input));
    expect(uses).toEqual([{ action: 'screenshot' }, { action: 'left_click', coordinate: [640, 400] }, { action: 'type', text: 'hello' }]);
    const first = server.received('messages')[0]!;
    expect((first.body.tools as Block[]).at(-1)).toMatchObject({
      type: 'computer_20250124',
      name: 'computer',
      display_width_px: 1280,
      display_height_px: 800,
    });
    expect(first.headers['anthropic-beta']).toContain('computer-use');
    const last = server.received('messages')[3]!.body.messages as { content: { type: string; content?: Block[] }[] }[];
    expect(last.at(-1)!.content[0]!.content!.map((b) => b.type)).toEqual(['text', 'image']);
  });

  it('retries a 429 honouring retry-after', async () => {
    server.script(
      'messages',
      { status: 429, headers: { 'retry-after': '0' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } },
      { text: 'ok' },
    );
    const waits: number[] = [];
    const answer = await new RetryingProvider(provider(), systemClock, { maxRetries: 2, baseDelayMs: 9000, maxDelayMs: 9000 }, (n) =>
      waits.push(n.waitMs),
    ).complete(base, {
      signal: new AbortController().signal,
    });
    expect(answer.text).toBe('ok');
    expect(waits).toEqual([0]);
  });
});
