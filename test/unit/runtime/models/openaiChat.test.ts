import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../electron/runtime/clock.js';
import { OpenAiChatProvider } from '../../../../electron/runtime/models/openaiChat.js';
import { RetryingProvider } from '../../../../electron/runtime/models/retry.js';
import { ModelError, type ModelRequest } from '../../../../electron/runtime/models/types.js';
import { ModelServer } from '../../../support/modelServer.js';

const request: ModelRequest = {
  system: 'You are a test.',
  tools: [{ name: 'fs_read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'read a.txt' }] }],
};

describe('OpenAI Chat Completions adapter (real SDK against a wire-protocol server)', () => {
  let server: ModelServer;
  beforeEach(async () => {
    server = await new ModelServer().start();
  });
  afterEach(async () => server.close());

  const provider = (timeoutMs?: number) =>
    new OpenAiChatProvider({ model: 'gpt-test', baseURL: server.url, apiKey: 'sk-test', ...(timeoutMs && { timeoutMs }) });

  it('assembles streamed text, parallel tool calls and usage', async () => {
    server.script('chat', {
      text: 'Reading both.',
      toolCalls: [
        { name: 'fs_read', arguments: { path: 'a.txt' } },
        { name: 'fs_read', arguments: { path: 'b.txt' } },
      ],
      usage: { input: 120, output: 30, cached: 100 },
    });
    const deltas: string[] = [];
    const answer = await provider().complete(request, { signal: new AbortController().signal, onText: (d) => deltas.push(d) });
    expect(answer.text).toBe('Reading both.');
    expect(deltas.join('')).toBe('Reading both.');
    expect(answer.toolCalls.map((c) => JSON.parse(c.argumentsText))).toEqual([{ path: 'a.txt' }, { path: 'b.txt' }]);
    expect(answer.usage).toEqual({ inputTokens: 120, outputTokens: 30, cachedInputTokens: 100 });
    expect(answer.stopReason).toBe('tool_calls');
    const sent = server.received('chat')[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body.stream).toBe(true);
    expect((sent.body.messages as { role: string }[])[0]).toEqual({ role: 'system', content: 'You are a test.' });
    expect((sent.body.tools as { function: { name: string } }[])[0]!.function.name).toBe('fs_read');
  });

  it('retries a 429 after the retry-after the server asked for', async () => {
    server.script('chat', { status: 429, headers: { 'retry-after': '0' } }, { text: 'ok' });
    const waits: number[] = [];
    const retrying = new RetryingProvider(provider(), systemClock, { maxRetries: 3, baseDelayMs: 5000, maxDelayMs: 10_000 }, (n) =>
      waits.push(n.waitMs),
    );
    const answer = await retrying.complete(request, { signal: new AbortController().signal });
    expect(answer.text).toBe('ok');
    expect(waits).toEqual([0]); // retry-after: 0 wins over the 5 s backoff
    expect(server.received('chat')).toHaveLength(2);
  });

  it('gives up on a 400 without retrying', async () => {
    server.script('chat', { status: 400, body: { error: { message: 'bad schema' } } });
    const retrying = new RetryingProvider(provider(), systemClock, { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 });
    const error = await retrying.complete(request, { signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('bad_request');
    expect(server.received('chat')).toHaveLength(1);
  });

  it('treats a stream cut midway as retryable and succeeds on the retry', async () => {
    server.script('chat', { text: 'partial answer', cutAfterEvents: 2 }, { text: 'whole answer' });
    const notes: string[] = [];
    const retrying = new RetryingProvider(provider(), systemClock, { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 }, (n) =>
      notes.push(n.code),
    );
    const answer = await retrying.complete(request, { signal: new AbortController().signal });
    expect(answer.text).toBe('whole answer');
    expect(notes).toHaveLength(1);
    expect(['stream_cut', 'network']).toContain(notes[0]);
  });

  it('cancels an in-flight call when the task signal aborts', async () => {
    server.script('chat', { hang: true });
    const controller = new AbortController();
    const retrying = new RetryingProvider(provider(), systemClock);
    const pending = retrying.complete(request, { signal: controller.signal }).catch((e: unknown) => e);
    while (server.received('chat').length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('task paused'));
    const error = await pending;
    expect((error as ModelError).code).toBe('cancelled');
    expect(server.received('chat')).toHaveLength(1);
  });

  it('a call that outlives its timeout fails as a retryable timeout', async () => {
    server.script('chat', { hang: true }, { text: 'second try' });
    const retrying = new RetryingProvider(provider(200), systemClock, { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 });
    const answer = await retrying.complete(request, { signal: new AbortController().signal });
    expect(answer.text).toBe('second try');
  });
});
