import { argumentsText, type ScriptedAnswer, type SseWriter } from './modelServer.js';

/** Renders a scripted answer as an OpenAI Responses object (JSON, or the event stream on `sse`). */
export function renderResponses(answer: ScriptedAnswer, model: string, sse?: SseWriter): unknown {
  const output: Record<string, unknown>[] = [];
  if (answer.reasoning) output.push({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: answer.reasoning }] });
  if (answer.text) {
    output.push({
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: answer.text, annotations: [] }],
    });
  }
  (answer.toolCalls ?? []).forEach((c, i) => {
    const callId = c.id ?? `call_${i + 1}`;
    output.push({
      type: 'function_call',
      id: `fc_${i + 1}`,
      call_id: callId,
      name: c.name,
      arguments: argumentsText(c),
      status: 'completed',
    });
  });
  (answer.computer ?? []).forEach((c, i) => {
    output.push({
      type: 'computer_call',
      id: `cu_${i + 1}`,
      call_id: c.id ?? `cu_call_${i + 1}`,
      action: c.action,
      pending_safety_checks: c.safetyChecks ?? [],
      status: 'completed',
    });
  });
  const response = {
    id: 'resp_scripted',
    object: 'response',
    created_at: 0,
    model,
    status: 'completed',
    output,
    usage: {
      input_tokens: answer.usage?.input ?? 10,
      output_tokens: answer.usage?.output ?? 5,
      total_tokens: (answer.usage?.input ?? 10) + (answer.usage?.output ?? 5),
      input_tokens_details: { cached_tokens: answer.usage?.cached ?? 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
  if (!sse) return response;
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) => sse.event({ type, sequence_number: sequence++, ...data }, type);
  send('response.created', { response: { ...response, status: 'in_progress', output: [] } });
  output.forEach((item, index) => {
    send('response.output_item.added', { output_index: index, item });
    if (item.type === 'message')
      send('response.output_text.delta', { output_index: index, content_index: 0, item_id: item.id, delta: answer.text });
    send('response.output_item.done', { output_index: index, item });
  });
  send('response.completed', { response });
  sse.end();
  return undefined;
}
