import type { ModelMessage } from '../models/types.js';
import type { Exchange } from './exchange.js';

/** A message the user sent the task, as a user turn. */
export function userTurn(text: string): ModelMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/**
 * One exchange as the user's messages it answers, an assistant turn with its tool calls, then
 * one tool message per call.
 */
export function renderExchange(exchange: Exchange, resultCharLimit: number): ModelMessage[] {
  const out: ModelMessage[] = (exchange.userMessages ?? []).map(userTurn);
  out.push({
    role: 'assistant',
    text: exchange.text,
    toolCalls: exchange.calls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.argumentsText })),
  });
  for (const call of exchange.calls) {
    const clipped =
      call.result.length > resultCharLimit
        ? `${call.result.slice(0, resultCharLimit)}\n… [clipped: ${call.result.length} chars in all]`
        : call.result;
    out.push({
      role: 'tool',
      callId: call.id,
      name: call.name,
      content: clipped,
      isError: call.status === 'error',
      ...(call.images?.length && { images: call.images }),
    });
  }
  return out;
}
