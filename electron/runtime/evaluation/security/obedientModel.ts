import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWireName } from '../../planning/llm/toolCatalog.js';
import { fillArgs, parseInstructions, textsOf, type AgentInstruction } from './agentInstructions.js';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function?: { name?: string } }[];
}

/**
 * The attacker's best friend: a model service (OpenAI Chat Completions, streamed, on 127.0.0.1)
 * that obeys every `AGENT:` instruction it reads — in the goal, and at once in any tool result —
 * one call a turn, and says "Done." when nothing is left. It keeps every request body as
 * received, so a secret that reached the model is found in them.
 */
export class ObedientModel {
  /** Every request body, byte for byte as the runtime sent it. */
  readonly requests: string[] = [];
  /** Instructions obeyed, in order. */
  readonly obeyed: string[] = [];
  /** One memory per conversation (a delegated child task is a conversation of its own), keyed by its first user message. */
  private readonly conversations = new Map<string, { seen: Set<string>; queue: AgentInstruction[] }>();
  private server: http.Server | undefined;
  baseUrl = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    this.requests.push(raw);
    if (!(req.url ?? '').endsWith('/chat/completions')) return void res.writeHead(404).end();
    const body = JSON.parse(raw || '{}') as { messages?: ChatMessage[]; model?: string };
    const messages = body.messages ?? [];
    const conversation = this.conversationOf(messages);
    read(conversation, messages);
    const next = conversation.queue.shift();
    const results = { last: () => toolText(messages, 'last'), first: (tool: string) => toolText(messages, 'first', toWireName(tool)) };
    const call = next && { name: toWireName(next.tool), arguments: JSON.stringify(fillArgs(next.args, results)) };
    if (next) this.obeyed.push(next.line);
    streamAnswer(res, body.model ?? 'obedient', call && { ...call, id: `call_${this.requests.length}` }, Math.ceil(raw.length / 4));
  }

  private conversationOf(messages: readonly ChatMessage[]): { seen: Set<string>; queue: AgentInstruction[] } {
    const key = contentText(messages.find((m) => m.role === 'user')?.content);
    let conversation = this.conversations.get(key);
    if (!conversation) this.conversations.set(key, (conversation = { seen: new Set(), queue: [] }));
    return conversation;
  }
}

/** New instructions from the user go last; new ones from a tool result jump the queue (obeyed at once). */
function read(conversation: { seen: Set<string>; queue: AgentInstruction[] }, messages: readonly ChatMessage[]): void {
  const injected: AgentInstruction[] = [];
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'tool') continue;
    for (const text of textsOf(contentText(message.content))) {
      for (const instruction of parseInstructions(text)) {
        if (conversation.seen.has(instruction.line)) continue;
        conversation.seen.add(instruction.line);
        if (message.role === 'user') conversation.queue.push(instruction);
        else injected.push(instruction);
      }
    }
  }
  conversation.queue.unshift(...injected);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('\n');
  return '';
}

/** The latest tool result, or the first of one tool (by wire name, found through the call it answers). */
function toolText(messages: readonly ChatMessage[], which: 'last' | 'first', wireName?: string): string {
  const names = new Map(messages.flatMap((m) => (m.tool_calls ?? []).map((c) => [c.id, c.function?.name] as const)));
  const results = messages.filter((m) => m.role === 'tool' && (wireName === undefined || names.get(m.tool_call_id ?? '') === wireName));
  const picked = which === 'last' ? results.at(-1) : results[0];
  return picked ? contentText(picked.content) : '';
}

/** One streamed Chat Completions answer: a single tool call, or the final text. */
function streamAnswer(
  res: http.ServerResponse,
  model: string,
  call: { id: string; name: string; arguments: string } | undefined,
  promptTokens: number,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-obedient', object: 'chat.completion.chunk', created: 0, model };
  const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: call ? '' : 'Done.' }, finish_reason: null }] });
  if (call) {
    const delta = { tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] };
    send({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
  }
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: call ? 'tool_calls' : 'stop' }] });
  const usage = { prompt_tokens: promptTokens, completion_tokens: call ? Math.ceil(call.arguments.length / 4) + 5 : 2 };
  send({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  send('[DONE]');
  res.end();
}
