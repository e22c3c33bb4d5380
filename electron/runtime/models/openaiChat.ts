import type OpenAI from 'openai';
import { openAiClient, type OpenAiClientOptions } from './openAiClient.js';
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import {
  ModelError,
  type ModelCallOptions,
  type ModelContentPart,
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
    const stream = await this.client.chat.completions.create(
      {
        model: this.model,
        messages: toChatMessages(request),
        ...(request.tools.length > 0 && { tools: request.tools.map(toChatTool) }),
        ...(request.maxOutputTokens && { max_tokens: request.maxOutputTokens }),
        stream: true,
        ...(this.options.streamUsage !== false && { stream_options: { include_usage: true } }),
      },
      { signal },
    );
    const acc = new ChunkAccumulator();
    for await (const chunk of stream) acc.add(chunk, onText);
    return acc.result(this.model);
  }
}

/** Assembles streamed deltas; a stream that ends without a finish reason was cut. */
class ChunkAccumulator {
  private text = '';
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
    };
  }
}

function toChatTool(tool: ModelRequest['tools'][number]): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/** Provider-neutral messages → Chat Completions messages (tool images follow as a user message). */
export function toChatMessages(request: ModelRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: request.system }];
  for (const message of request.messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.content.map(toChatPart) });
    else if (message.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: message.text || null,
        ...(message.toolCalls.length > 0 && {
          tool_calls: message.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.argumentsText },
          })),
        }),
      });
    } else {
      out.push({ role: 'tool', tool_call_id: message.callId, content: message.isError ? `ERROR: ${message.content}` : message.content });
      if (message.images?.length) out.push({ role: 'user', content: message.images.map(toChatPart) });
    }
  }
  return out;
}

function toChatPart(part: ModelContentPart): ChatCompletionContentPart {
  return part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } };
}
