import type OpenAI from 'openai';
import { openAiClient, type OpenAiClientOptions } from './openAiClient.js';
import type { ResponseInputItem, Tool } from 'openai/resources/responses/responses';
import { fromOpenAI, parseComputerAction } from '../gui/actionSpace.js';
import { toOpenAIAction } from '../gui/actionToProvider.js';
import {
  ModelError,
  type ModelCallOptions,
  type ModelContentPart,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelToolCall,
  type PendingSafetyCheck,
} from './types.js';

/** An OpenAI Responses endpoint. */
export interface OpenAiResponsesOptions extends OpenAiClientOptions {
  model: string;
  /** What the computer-use tool drives. */
  environment?: 'browser' | 'linux' | 'ubuntu' | 'mac' | 'windows';
}

/** The name computer actions carry in provider-neutral tool calls. */
export const RESPONSES_COMPUTER_TOOL = 'computer';

/**
 * OpenAI Responses over the official SDK (streamed): function tools and the computer-use tool.
 * A computer call's pending safety checks are returned for approval; they are acknowledged on
 * the next request only if the caller passes them in `acknowledgedSafetyChecks`.
 */
export class OpenAiResponsesProvider implements ModelProvider {
  readonly kind = 'openai-responses';
  readonly model: string;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiResponsesOptions) {
    this.model = options.model;
    this.client = openAiClient(options);
  }

  async complete(request: ModelRequest, { signal, onText }: ModelCallOptions): Promise<ModelResponse> {
    const stream = await this.client.responses.create(
      {
        model: this.model,
        instructions: request.system,
        input: toResponsesInput(request),
        tools: toResponsesTools(request, this.options.environment ?? 'browser'),
        ...(request.computer && { truncation: 'auto' as const }),
        ...(request.maxOutputTokens && { max_output_tokens: request.maxOutputTokens }),
        stream: true,
      },
      { signal },
    );
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') onText?.(event.delta);
      if (event.type === 'response.completed') completed = event.response;
      if (event.type === 'response.failed')
        throw new ModelError('server', `openai-responses: ${event.response.error?.message ?? 'the response failed'}`, true);
    }
    if (!completed) throw new ModelError('stream_cut', 'openai-responses: the stream ended before the response completed', true);
    return fromResponse(completed, this.model);
  }
}

function fromResponse(response: OpenAI.Responses.Response, requested: string): ModelResponse {
  let text = '';
  const toolCalls: ModelResponse['toolCalls'] = [];
  const safetyChecks: PendingSafetyCheck[] = [];
  const reasoning: string[] = [];
  for (const item of response.output) {
    if (item.type === 'reasoning') for (const part of item.summary) reasoning.push(part.text);
    if (item.type === 'message') for (const part of item.content) if (part.type === 'output_text') text += part.text;
    if (item.type === 'function_call') toolCalls.push({ id: item.call_id, name: item.name, argumentsText: item.arguments });
    if (item.type === 'computer_call') {
      toolCalls.push({ id: item.call_id, name: RESPONSES_COMPUTER_TOOL, argumentsText: canonicalAction(item.action) });
      for (const check of item.pending_safety_checks)
        safetyChecks.push({ callId: item.call_id, id: check.id, code: check.code ?? '', message: check.message ?? '' });
    }
  }
  const usage = response.usage;
  return {
    text,
    toolCalls,
    usage: {
      inputTokens: usage?.input_tokens ?? 0,
      outputTokens: usage?.output_tokens ?? 0,
      cachedInputTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    },
    stopReason: toolCalls.length > 0 ? 'tool_calls' : response.status === 'incomplete' ? 'max_tokens' : 'end',
    model: response.model || requested,
    ...(safetyChecks.length > 0 && { safetyChecks }),
    ...(reasoning.length > 0 && { reasoning: reasoning.join('\n\n') }),
  };
}

/** A `computer_call` action as the one computer action (unknown shapes stay raw: the planner tells the model). */
function canonicalAction(action: unknown): string {
  try {
    return JSON.stringify(fromOpenAI(action as Record<string, unknown>));
  } catch {
    return JSON.stringify(action);
  }
}

/** A past computer action in the shape the model wrote it. */
function nativeAction(argumentsText: string): unknown {
  const parsed = JSON.parse(argumentsText) as unknown;
  try {
    return toOpenAIAction(parseComputerAction(parsed));
  } catch {
    return parsed;
  }
}

function toResponsesTools(request: ModelRequest, environment: NonNullable<OpenAiResponsesOptions['environment']>): Tool[] {
  // With a desktop the provider's own computer tool replaces the function tool of the same name.
  const functions = request.computer ? request.tools.filter((t) => t.name !== RESPONSES_COMPUTER_TOOL) : request.tools;
  const tools: Tool[] = functions.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.inputSchema,
    strict: false,
  }));
  if (request.computer)
    tools.push({
      type: 'computer_use_preview',
      display_width: request.computer.width,
      display_height: request.computer.height,
      environment,
    });
  return tools;
}

/**
 * Provider-neutral messages → Responses input items; computer results carry acknowledged checks
 * only. A `computer_call_output` must carry a screenshot, so a computer call whose result has
 * none (an error, or a screenshot dropped from the image window) goes back as text instead.
 */
export function toResponsesInput(request: ModelRequest): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  const computerCalls = new Map<string, ModelToolCall>();
  const withImage = new Set(
    request.messages.flatMap((m) => (m.role === 'tool' && m.images?.some((i) => i.type === 'image') ? [m.callId] : [])),
  );
  for (const message of request.messages) {
    if (message.role === 'user') items.push({ role: 'user', content: message.content.map(toInputPart) });
    else if (message.role === 'assistant') {
      if (message.text) items.push({ role: 'assistant', content: message.text });
      for (const call of message.toolCalls) {
        if (call.name !== RESPONSES_COMPUTER_TOOL)
          items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.argumentsText });
        else if (withImage.has(call.id)) {
          computerCalls.set(call.id, call);
          items.push({
            type: 'computer_call',
            id: `cu_${call.id}`,
            call_id: call.id,
            action: nativeAction(call.argumentsText),
            pending_safety_checks: [],
            status: 'completed',
          } as ResponseInputItem);
        } else {
          computerCalls.set(call.id, call);
          items.push({ role: 'assistant', content: `(computer action) ${call.argumentsText}` });
        }
      }
    } else if (computerCalls.has(message.callId)) {
      const image = message.images?.find((i) => i.type === 'image');
      if (!image || image.type !== 'image') {
        items.push({ role: 'user', content: `(result of that computer action) ${message.isError ? 'ERROR: ' : ''}${message.content}` });
        continue;
      }
      const acknowledged = request.acknowledgedSafetyChecks?.[message.callId] ?? [];
      items.push({
        type: 'computer_call_output',
        call_id: message.callId,
        output: { type: 'computer_screenshot', image_url: `data:${image.mediaType};base64,${image.data}` },
        ...(acknowledged.length > 0 && {
          acknowledged_safety_checks: acknowledged.map((c) => ({ id: c.id, code: c.code, message: c.message })),
        }),
      });
    } else
      items.push({
        type: 'function_call_output',
        call_id: message.callId,
        output: message.isError ? `ERROR: ${message.content}` : message.content,
      });
  }
  return items;
}

function toInputPart(
  part: ModelContentPart,
): { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' } {
  return part.type === 'text'
    ? { type: 'input_text', text: part.text }
    : { type: 'input_image', image_url: `data:${part.mediaType};base64,${part.data}`, detail: 'auto' };
}
