import { createRequire } from 'node:module';
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, TextBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import { fromAnthropic, parseComputerAction } from '../gui/actionSpace.js';
import { toAnthropicAction } from '../gui/actionToProvider.js';
import { tracedFetch } from '../trace/telemetry/propagation.js';
import type {
  ModelCallOptions,
  ModelContentPart,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelToolCall,
} from './types.js';

/** An Anthropic Messages endpoint. */
export interface AnthropicOptions {
  model: string;
  baseURL?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Extra request headers (non-secret). */
  headers?: Record<string, string>;
  /** The computer-use tool version offered when a request asks for the computer. */
  computerToolVersion?: AnthropicComputerVersion;
}

/** The computer tool versions the SDK knows, and the beta header each needs. */
export const ANTHROPIC_COMPUTER_BETAS = {
  computer_20241022: 'computer-use-2024-10-22',
  computer_20250124: 'computer-use-2025-01-24',
  computer_20251124: 'computer-use-2025-11-24',
} as const;
/** An Anthropic computer tool version. */
export type AnthropicComputerVersion = keyof typeof ANTHROPIC_COMPUTER_BETAS;

const EPHEMERAL = { type: 'ephemeral' } as const;
/** The provider's name for its computer-use tool; calls to it come back under this name. */
export const ANTHROPIC_COMPUTER_TOOL = 'computer';

/**
 * Anthropic Messages over the official SDK, streamed. Cache breakpoints go on the stable prefix
 * (last tool, system, goal message) and on the newest message, so each step reuses the cache
 * written by the step before.
 */
export class AnthropicProvider implements ModelProvider {
  readonly kind = 'anthropic';
  readonly model: string;
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicOptions) {
    this.model = options.model;
    // Loaded on first use: the SDK costs every CLI start ~0.2 s otherwise.
    const { Anthropic: Sdk } = createRequire(import.meta.url)('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk');
    this.client = new Sdk({
      apiKey: options.apiKey ?? 'not-needed',
      ...(options.baseURL && { baseURL: options.baseURL }),
      timeout: options.timeoutMs ?? 120_000,
      maxRetries: 0,
      // Carries the model call's trace context (traceparent) when telemetry is on.
      fetch: tracedFetch,
      ...(options.headers && { defaultHeaders: options.headers }),
    });
  }

  async complete(request: ModelRequest, { signal, onText }: ModelCallOptions): Promise<ModelResponse> {
    const version = this.options.computerToolVersion ?? 'computer_20250124';
    const stream = this.client.messages.stream(
      {
        model: this.model,
        max_tokens: request.maxOutputTokens ?? 4096,
        system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }],
        tools: toAnthropicTools(request, version),
        messages: toAnthropicMessages(request),
      },
      {
        signal,
        ...(request.computer && {
          headers: { 'anthropic-beta': ANTHROPIC_COMPUTER_BETAS[version] },
        }),
      },
    );
    if (onText) stream.on('text', (delta) => onText(delta));
    const message = await stream.finalMessage();
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const reasoning = message.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : [])).join('\n\n');
    const toolCalls = message.content.flatMap((b) =>
      b.type === 'tool_use' ? [toolCallOf(b.id, b.name, b.input, request.computer !== undefined)] : [],
    );
    const cached = message.usage.cache_read_input_tokens ?? 0;
    const written = message.usage.cache_creation_input_tokens ?? 0;
    return {
      text,
      toolCalls,
      usage: {
        inputTokens: message.usage.input_tokens + cached + written,
        outputTokens: message.usage.output_tokens,
        cachedInputTokens: cached,
      },
      stopReason:
        message.stop_reason === 'tool_use'
          ? 'tool_calls'
          : message.stop_reason === 'max_tokens'
            ? 'max_tokens'
            : message.stop_reason === 'end_turn'
              ? 'end'
              : 'other',
      model: message.model,
      ...(reasoning && { reasoning }),
    };
  }
}

/** A tool_use block as a neutral call; the computer tool's own actions become the one computer action. */
function toolCallOf(id: string, name: string, input: unknown, computer: boolean): ModelToolCall {
  if (computer && name === ANTHROPIC_COMPUTER_TOOL) {
    try {
      return { id, name, argumentsText: JSON.stringify(fromAnthropic((input ?? {}) as Record<string, unknown>)) };
    } catch {
      // Not an action we know: the planner's validation tells the model what is wrong.
    }
  }
  return { id, name, argumentsText: JSON.stringify(input ?? {}) };
}

function toAnthropicTools(request: ModelRequest, version: AnthropicComputerVersion): ToolUnion[] {
  // With a desktop the provider's own computer tool replaces the function tool of the same name.
  const functions = request.computer ? request.tools.filter((t) => t.name !== ANTHROPIC_COMPUTER_TOOL) : request.tools;
  const tools: ToolUnion[] = functions.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as { type: 'object' },
  }));
  if (request.computer) {
    tools.push({
      type: version,
      name: ANTHROPIC_COMPUTER_TOOL,
      display_width_px: request.computer.width,
      display_height_px: request.computer.height,
      ...(version === 'computer_20251124' && { enable_zoom: true }),
    } as unknown as ToolUnion);
  }
  const last = tools.at(-1);
  if (last) Object.assign(last, { cache_control: EPHEMERAL });
  return tools;
}

/** Provider-neutral messages → Anthropic turns: tool results travel in one user turn, images inside them. */
export function toAnthropicMessages(request: ModelRequest): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of request.messages) {
    const blocks = toBlocks(message, request.computer !== undefined);
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const previous = out.at(-1);
    if (previous && previous.role === role && Array.isArray(previous.content)) previous.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  markBreakpoint(out[Math.max(0, (request.stableMessages ?? 1) - 1)]);
  if (out.length > 1) markBreakpoint(out.at(-1));
  return out;
}

function toBlocks(message: ModelMessage, computer: boolean): ContentBlockParam[] {
  if (message.role === 'user') return message.content.map(toPart);
  if (message.role === 'assistant') {
    const blocks: ContentBlockParam[] = message.text ? [{ type: 'text', text: message.text }] : [];
    for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: inputOf(call, computer) });
    return blocks;
  }
  const content: (TextBlockParam | ReturnType<typeof toPart>)[] = [{ type: 'text', text: message.content }];
  for (const image of message.images ?? []) content.push(toPart(image));
  return [{ type: 'tool_result', tool_use_id: message.callId, is_error: message.isError, content: content as TextBlockParam[] }];
}

function toPart(
  part: ModelContentPart,
): TextBlockParam | { type: 'image'; source: { type: 'base64'; media_type: 'image/png'; data: string } } {
  return part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image', source: { type: 'base64', media_type: part.mediaType as 'image/png', data: part.data } };
}

function markBreakpoint(message: MessageParam | undefined): void {
  if (!message || !Array.isArray(message.content)) return;
  const last = message.content.at(-1);
  if (last) Object.assign(last, { cache_control: EPHEMERAL });
}

/** A past computer action goes back in the computer tool's own shape, as the model wrote it. */
function inputOf(call: ModelToolCall, computer: boolean): unknown {
  const input = parseOr(call.argumentsText);
  if (!computer || call.name !== ANTHROPIC_COMPUTER_TOOL) return input;
  try {
    return toAnthropicAction(parseComputerAction(input));
  } catch {
    return input;
  }
}

/** A malformed argument text still has to go back as an object; the planner already told the model. */
function parseOr(text: string): unknown {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
