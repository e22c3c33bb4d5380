import { argumentsText, type ScriptedAnswer, type SseWriter } from './modelServer.js';

/** Renders a scripted answer as a Chat Completions response (JSON, or chunks on `sse`). */
export function renderChat(answer: ScriptedAnswer, model: string, sse?: SseWriter): unknown {
  const calls = (answer.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${i + 1}`, name: c.name, args: argumentsText(c) }));
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: answer.usage?.input ?? 10,
    completion_tokens: answer.usage?.output ?? 5,
    total_tokens: (answer.usage?.input ?? 10) + (answer.usage?.output ?? 5),
    prompt_tokens_details: { cached_tokens: answer.usage?.cached ?? 0 },
  };
  const base = { id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 0, model };
  if (!sse) {
    return {
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: finish,
          message: {
            role: 'assistant',
            content: answer.text ?? null,
            ...(answer.reasoning && { reasoning_content: answer.reasoning }),
            ...(calls.length > 0 && {
              tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })),
            }),
          },
        },
      ],
      usage,
    };
  }
  sse.event({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  // OpenAI-compatible reasoning models (DeepSeek, Qwen) stream their reasoning before the answer.
  for (const piece of splitText(answer.reasoning ?? ''))
    sse.event({ ...base, choices: [{ index: 0, delta: { reasoning_content: piece }, finish_reason: null }] });
  for (const piece of splitText(answer.text ?? ''))
    sse.event({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  calls.forEach((c, index) => {
    const half = Math.floor(c.args.length / 2);
    sse.event({
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.args.slice(0, half) } }] },
          finish_reason: null,
        },
      ],
    });
    sse.event({
      ...base,
      choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: c.args.slice(half) } }] }, finish_reason: null }],
    });
  });
  sse.event({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  sse.event({ ...base, choices: [], usage });
  sse.event('[DONE]');
  sse.end();
  return undefined;
}

/** Splits text in two so streaming deltas are really assembled. */
export function splitText(text: string): string[] {
  if (text.length < 2) return text ? [text] : [];
  const half = Math.floor(text.length / 2);
  return [text.slice(0, half), text.slice(half)];
}
