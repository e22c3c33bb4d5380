import type OpenAI from 'openai';
import { openAiClient, type OpenAiClientOptions } from './openAiClient.js';
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { parseComputerAction } from '../gui/actionSpace.js';
import type { Size } from '../gui/coordinates.js';
import { toUiTarsAction, UI_TARS_PROMPT } from '../gui/uiTars.js';
import { fromUiTarsAnswer, UI_TARS_COMPUTER_TOOL } from './uiTarsAnswer.js';
import {
  ModelError,
  type ModelCallOptions,
  type ModelContentPart,
  type ModelMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelToolCall,
} from './types.js';

/** Where an OpenAI-compatible endpoint is and how to call it. */
export interface OpenAiChatOptions extends OpenAiClientOptions {
  model: string;
  /** Some local servers reject `stream_options`; turn off to omit it. */
  streamUsage?: boolean;
  /** How a desktop is offered: `ui-tars` action text, or the `computer` function tool; default: UI-TARS when the model's name says so. */
  computerUse?: 'ui-tars' | 'function';
}

/** True when the model answers in UI-TARS action text. */
export function speaksUiTars(options: Pick<OpenAiChatOptions, 'model' | 'computerUse'>): boolean {
  return options.computerUse ? options.computerUse === 'ui-tars' : /ui-?tars/i.test(options.model);
}

/**
 * Chat Completions over the official `openai` SDK, streamed. The SDK's own retries are off:
 * RetryingProvider retries uniformly for every adapter.
 */
export class OpenAiChatProvider implements ModelProvider {
  readonly kind = 'openai-chat';
  readonly model: string;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiChatOptions) {
    this.model = options.model;
    this.client = openAiClient(options);
  }

  async complete(request: ModelRequest, { signal, onText }: ModelCallOptions): Promise<ModelResponse> {
    const uiTars = request.computer && speaksUiTars(this.options) ? request.computer : undefined;
    const tools = uiTars ? request.tools.filter((t) => t.name !== UI_TARS_COMPUTER_TOOL) : request.tools;
    const stream = await this.client.chat.completions.create(
      {
        model: this.model,
        messages: toChatMessages(request, uiTars),
        ...(tools.length > 0 && { tools: tools.map(toChatTool) }),
        ...(request.maxOutputTokens && { max_tokens: request.maxOutputTokens }),
        stream: true,
        ...(this.options.streamUsage !== false && { stream_options: { include_usage: true } }),
      },
      { signal },
    );
    const acc = new ChunkAccumulator();
    for await (const chunk of stream) acc.add(chunk, onText);
    const response = acc.result(this.model);
    return uiTars ? fromUiTarsAnswer(response, uiTars) : response;
  }
}

/** Assembles streamed deltas; a stream that ends without a finish reason was cut. */
class ChunkAccumulator {
  private text = '';
  /** `reasoning_content` deltas of OpenAI-compatible reasoning models (DeepSeek, Qwen, vLLM); never sent back. */
  private reasoning = '';
  private calls = new Map<number, ModelToolCall>();
  private finish: string | null = null;
  private usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  private model = '';

  add(chunk: ChatCompletionChunk, onText?: (delta: string) => void): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) {
      this.usage = {
        inputTokens: chunk.usage.prompt_tokens,
        outputTokens: chunk.usage.completion_tokens,
        cachedInputTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
      };
    }
    for (const choice of chunk.choices) {
      const delta = choice.delta;
      if (delta?.content) {
        this.text += delta.content;
        onText?.(delta.content);
      }
      const reasoning = (delta as { reasoning_content?: unknown } | undefined)?.reasoning_content;
      if (typeof reasoning === 'string') this.reasoning += reasoning;
      for (const call of delta?.tool_calls ?? []) {
        const current = this.calls.get(call.index) ?? { id: '', name: '', argumentsText: '' };
        if (call.id) current.id = call.id;
        if (call.function?.name) current.name += call.function.name;
        if (call.function?.arguments) current.argumentsText += call.function.arguments;
        this.calls.set(call.index, current);
      }
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
  }

  result(requested: string): ModelResponse {
    if (this.finish === null) throw new ModelError('stream_cut', 'openai-chat: the stream ended before the model finished', true);
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
    return {
      text: this.text,
      toolCalls,
      usage: this.usage,
      stopReason: toolCalls.length > 0 ? 'tool_calls' : this.finish === 'length' ? 'max_tokens' : this.finish === 'stop' ? 'end' : 'other',
      model: this.model || requested,
      ...(this.reasoning.trim() && { reasoning: this.reasoning }),
    };
  }
}

function toChatTool(tool: ModelRequest['tools'][number]): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/**
 * Provider-neutral messages → Chat Completions messages. Tool messages must answer their
 * assistant turn before anything else, so screenshots of a turn's results follow them in one
 * user message. In UI-TARS mode (`uiTars`: the model space) computer calls travel as the
 * model's own action text and their screenshots as user turns.
 */
export function toChatMessages(request: ModelRequest, uiTars?: Size): ChatCompletionMessageParam[] {
  const system = uiTars ? `${request.system}\n\n${UI_TARS_PROMPT}` : request.system;
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  const computerCalls = new Set<string>();
  let pendingImages: ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (pendingImages.length > 0) out.push({ role: 'user', content: pendingImages });
    pendingImages = [];
  };
  for (const message of request.messages) {
    if (message.role !== 'tool') flushImages();
    if (message.role === 'user') out.push({ role: 'user', content: message.content.map(toChatPart) });
    else if (message.role === 'assistant') out.push(assistantMessage(message, uiTars, computerCalls));
    else if (computerCalls.has(message.callId)) {
      const note = message.isError ? `ERROR: ${message.content}` : '(the screen after that action)';
      pendingImages.push({ type: 'text', text: note }, ...(message.images ?? []).map(toChatPart));
    } else {
      out.push({ role: 'tool', tool_call_id: message.callId, content: message.isError ? `ERROR: ${message.content}` : message.content });
      pendingImages.push(...(message.images ?? []).map(toChatPart));
    }
  }
  flushImages();
  return out;
}

function assistantMessage(
  message: Extract<ModelMessage, { role: 'assistant' }>,
  uiTars: Size | undefined,
  computerCalls: Set<string>,
): ChatCompletionMessageParam {
  const computer = uiTars ? message.toolCalls.filter((c) => c.name === UI_TARS_COMPUTER_TOOL) : [];
  for (const c of computer) computerCalls.add(c.id);
  const functions = message.toolCalls.filter((c) => !computer.includes(c));
  const text =
    computer.length > 0 && !/^\s*Action:/m.test(message.text)
      ? `${message.text}\n${computer.map((c) => actionLine(c, uiTars!)).join('\n')}`
      : message.text;
  return {
    role: 'assistant',
    content: text.trim() || null,
    ...(functions.length > 0 && {
      tool_calls: functions.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.argumentsText } })),
    }),
  };
}

function actionLine(call: ModelToolCall, size: Size): string {
  try {
    return `Action: ${toUiTarsAction(parseComputerAction(JSON.parse(call.argumentsText)), size)}`;
  } catch {
    return `Action: ${call.argumentsText}`;
  }
}

function toChatPart(part: ModelContentPart): ChatCompletionContentPart {
  return part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } };
}
