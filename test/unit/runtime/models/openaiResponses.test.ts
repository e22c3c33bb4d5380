import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiResponsesProvider } from '../../../../electron/runtime/models/openaiResponses.js';
import type { ModelMessage, ModelRequest } from '../../../../electron/runtime/models/types.js';
import { ModelServer } from '../../../support/modelServer.js';

const base: ModelRequest = {
  system: 'system',
  tools: [{ name: 'fs_read', description: 'read', inputSchema: { type: 'object' } }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Goal: pay the invoice' }] }],
  computer: { width: 1024, height: 768 },
};

type Item = { type?: string; acknowledged_safety_checks?: unknown };

describe('OpenAI Responses adapter (real SDK against a wire-protocol server)', () => {
  let server: ModelServer;
  beforeEach(async () => {
    server = await new ModelServer().start();
  });
  afterEach(async () => server.close());
  const provider = () => new OpenAiResponsesProvider({ model: 'computer-use-preview', baseURL: server.url, apiKey: 'sk-test' });
  const signal = () => new AbortController().signal;

  it('streams function calls and text with usage', async () => {
    server.script('responses', {
      text: 'Reading.',
      toolCalls: [{ name: 'fs_read', arguments: { path: 'a' } }],
      usage: { input: 70, output: 7, cached: 64 },
    });
    const answer = await provider().complete(base, { signal: signal() });
    expect(answer.text).toBe('Reading.');
    expect(answer.toolCalls).toEqual([{ id: 'call_1', name: 'fs_read', argumentsText: '{"path":"a"}' }]);
    expect(answer.usage).toEqual({ inputTokens: 70, outputTokens: 7, cachedInputTokens: 64 });
    const body = server.received('responses')[0]!.body as { instructions: string; tools: Item[] };
    expect(body.instructions).toBe('system');
    expect(body.tools.map((t) => t.type)).toEqual(['function', 'computer_use_preview']);
  });

  it('surfaces pending safety checks and acknowledges them only when the caller approved them', async () => {
    const check = { id: 'sc_1', code: 'malicious_instructions', message: 'The page asks to transfer money.' };
    server.script(
      'responses',
      { computer: [{ action: { type: 'click', x: 10, y: 20, button: 'left' }, id: 'cu_1', safetyChecks: [check] }] },
      { text: 'stopped' },
      { text: 'clicked' },
    );
    const first = await provider().complete(base, { signal: signal() });
    expect(first.safetyChecks).toEqual([{ callId: 'cu_1', ...check }]);
    // The runtime executes the one computer action; the model is shown its own shape in the history.
    expect(JSON.parse(first.toolCalls[0]!.argumentsText)).toEqual({ action: 'click', x: 10, y: 20, button: 'left', count: 1 });

    const history: ModelMessage[] = [
      ...base.messages,
      { role: 'assistant', text: '', toolCalls: first.toolCalls },
      {
        role: 'tool',
        callId: 'cu_1',
        name: 'computer',
        content: 'clicked',
        isError: false,
        images: [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }],
      },
    ];
    // Not approved: the output goes back without an acknowledgement.
    await provider().complete({ ...base, messages: history }, { signal: signal() });
    // Approved: the same output carries the acknowledged check.
    await provider().complete(
      { ...base, messages: history, acknowledgedSafetyChecks: { cu_1: first.safetyChecks! } },
      { signal: signal() },
    );
    const outputs = server
      .received('responses')
      .slice(1)
      .map((r) => (r.body.input as Item[]).find((i) => i.type === 'computer_call_output')!);
    expect(outputs[0]!.acknowledged_safety_checks).toBeUndefined();
    expect(outputs[1]!.acknowledged_safety_checks).toEqual([check]);
    expect(outputs[1]).toMatchObject({ output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AAAA' } });
    const call = (server.received('responses')[1]!.body.input as (Item & { action?: unknown })[]).find((i) => i.type === 'computer_call');
    expect(call?.action).toEqual({ type: 'click', x: 10, y: 20, button: 'left' });
  });

  it('sends a computer result without a screenshot (an error, or outside the image window) as text, never an empty image', async () => {
    server.script('responses', { text: 'ok' });
    const history: ModelMessage[] = [
      ...base.messages,
      { role: 'assistant', text: '', toolCalls: [{ id: 'cu_9', name: 'computer', argumentsText: '{"action":"screenshot"}' }] },
      { role: 'tool', callId: 'cu_9', name: 'computer', content: 'desktop unavailable', isError: true },
    ];
    await provider().complete({ ...base, messages: history }, { signal: signal() });
    expect(server.rejections).toEqual([]);
    const input = server.received('responses')[0]!.body.input as Item[];
    expect(input.some((i) => i.type === 'computer_call_output' || i.type === 'computer_call')).toBe(false);
    expect(JSON.stringify(input)).toContain('desktop unavailable');
  });
});
