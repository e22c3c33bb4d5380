import type { Attributes, AttributeValue, Span } from '@opentelemetry/api';
import type { ModelMessage, ModelRequest, ModelResponse } from '../../models/types.js';
import type { Redactor } from '../redactor.js';

/** The longest content attribute exported; longer text is cut with a note of its length. */
const MAX_CONTENT_CHARS = 16_384;
/** Base64 runs this long are images or files: named by size, never exported. */
const BINARY_RUN = /^[A-Za-z0-9+/=\r\n]{512,}$/;

/**
 * Sets attributes through the redactor: every string (and string array) loses known secret
 * values before it reaches the span, whatever it came from.
 */
export function setRedacted(span: Span, redactor: Redactor, attributes: Record<string, AttributeValue | undefined>): void {
  const clean: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (typeof value === 'string') clean[key] = redactor.text(value);
    else if (Array.isArray(value)) clean[key] = value.map((v) => (typeof v === 'string' ? redactor.text(v) : v)) as AttributeValue;
    else clean[key] = value;
  }
  span.setAttributes(clean);
}

/** The longest reason exported without content capture. */
const MAX_REASON_CHARS = 200;

/**
 * A reason (task state, step error, approval, transition) as exported: redacted; without content
 * capture only its head, up to the first `: `: the kind of failure, not the text it may quote
 * (a check's observed output, the model's own words in "the model gave up: …", a tool's error body).
 */
export function reasonText(text: string, redactor: Redactor, captureContent: boolean): string {
  const redacted = redactor.text(text);
  if (captureContent) return redacted.length <= MAX_CONTENT_CHARS ? redacted : `${redacted.slice(0, MAX_CONTENT_CHARS)}…`;
  const cut = redacted.indexOf(': ');
  const head = cut < 0 ? redacted : redacted.slice(0, cut);
  return head.length <= MAX_REASON_CHARS ? head : `${head.slice(0, MAX_REASON_CHARS)}…`;
}

/** A value as exported content: redacted JSON (or the text itself), binary runs named, capped in length. */
export function contentText(value: unknown, redactor: Redactor): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value, withoutBinary) ?? '');
  const redacted = redactor.text(text);
  return redacted.length <= MAX_CONTENT_CHARS ? redacted : `${redacted.slice(0, MAX_CONTENT_CHARS)}… [${redacted.length} characters]`;
}

function withoutBinary(_key: string, value: unknown): unknown {
  return typeof value === 'string' && BINARY_RUN.test(value) ? `[binary, ${value.length} characters]` : value;
}

type Part =
  | { type: 'text'; content: string }
  | { type: 'blob'; modality: 'image'; mime_type: string; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_call_response'; id: string; response: string };

/** The request's conversation in the GenAI `gen_ai.input.messages` shape (role + parts); images are named, not sent. */
export function inputMessages(request: ModelRequest): { role: string; parts: Part[] }[] {
  return request.messages.map(messageParts);
}

function messageParts(message: ModelMessage): { role: string; parts: Part[] } {
  if (message.role === 'user')
    return {
      role: 'user',
      parts: message.content.map((p) =>
        p.type === 'text'
          ? { type: 'text', content: p.text }
          : { type: 'blob', modality: 'image', mime_type: p.mediaType, content: '[image]' },
      ),
    };
  if (message.role === 'assistant')
    return {
      role: 'assistant',
      parts: [
        ...(message.text ? [{ type: 'text' as const, content: message.text }] : []),
        ...message.toolCalls.map((c) => ({ type: 'tool_call' as const, id: c.id, name: c.name, arguments: c.argumentsText })),
      ],
    };
  return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.callId, response: message.content }] };
}

/** The answer in the GenAI `gen_ai.output.messages` shape. */
export function outputMessages(response: ModelResponse): { role: string; parts: Part[]; finish_reason: string }[] {
  const parts: Part[] = [
    ...(response.text ? [{ type: 'text' as const, content: response.text }] : []),
    ...response.toolCalls.map((c) => ({ type: 'tool_call' as const, id: c.id, name: c.name, arguments: c.argumentsText })),
  ];
  return [{ role: 'assistant', parts, finish_reason: finishReason(response.stopReason) }];
}

/** The GenAI finish reason for a stop reason. */
export function finishReason(stop: ModelResponse['stopReason']): string {
  return stop === 'end' ? 'stop' : stop === 'tool_calls' ? 'tool_call' : stop === 'max_tokens' ? 'length' : 'other';
}
