import { argumentsText, type ScriptedAnswer, type SseWriter } from './modelServer.js';
import { splitText } from './modelServerChat.js';

type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; json: string };

/** Renders a scripted answer as an Anthropic Messages response (JSON, or the event stream on `sse`). */
export function renderAnthropic(answer: ScriptedAnswer, model: string, sse?: SseWriter): unknown {
  const blocks: Block[] = [];
  if (answer.reasoning) blocks.push({ type: 'thinking', thinking: answer.reasoning });
  if (answer.text) blocks.push({ type: 'text', text: answer.text });
  (answer.toolCalls ?? []).forEach((c, i) => {
    const json = argumentsText(c);
    blocks.push({ type: 'tool_use', id: c.id ?? `toolu_${i + 1}`, name: c.name, input: safeParse(json), json });
  });
  (answer.computer ?? []).forEach((c, i) => {
    const json = JSON.stringify(c.action);
    blocks.push({ type: 'tool_use', id: c.id ?? `toolu_cu_${i + 1}`, name: 'computer', input: c.action, json });
  });
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const usage = {
    input_tokens: answer.usage?.input ?? 10,
    output_tokens: answer.usage?.output ?? 5,
    cache_read_input_tokens: answer.usage?.cached ?? 0,
    cache_creation_input_tokens: 0,
  };
  const content = blocks.map((b) =>
    b.type === 'text'
      ? { type: 'text', text: b.text }
      : b.type === 'thinking'
        ? { type: 'thinking', thinking: b.thinking, signature: 'sig_scripted' }
        : { type: 'tool_use', id: b.id, name: b.name, input: b.input },
  );
  const message = { id: 'msg_scripted', type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage };
  if (!sse) return message;
  sse.event(
    { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    'message_start',
  );
  blocks.forEach((b, index) => {
    const start =
      b.type === 'text'
        ? { type: 'text', text: '' }
        : b.type === 'thinking'
          ? { type: 'thinking', thinking: '', signature: '' }
          : { type: 'tool_use', id: b.id, name: b.name, input: {} };
    sse.event({ type: 'content_block_start', index, content_block: start }, 'content_block_start');
    const pieces = b.type === 'text' ? splitText(b.text) : b.type === 'thinking' ? splitText(b.thinking) : splitText(b.json);
    for (const piece of pieces) {
      const delta =
        b.type === 'text'
          ? { type: 'text_delta', text: piece }
          : b.type === 'thinking'
            ? { type: 'thinking_delta', thinking: piece }
            : { type: 'input_json_delta', partial_json: piece };
      sse.event({ type: 'content_block_delta', index, delta }, 'content_block_delta');
    }
    if (b.type === 'thinking')
      sse.event(
        { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'sig_scripted' } },
        'content_block_delta',
      );
    sse.event({ type: 'content_block_stop', index }, 'content_block_stop');
  });
  sse.event(
    { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } },
    'message_delta',
  );
  sse.event({ type: 'message_stop' }, 'message_stop');
  sse.end();
  return undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
