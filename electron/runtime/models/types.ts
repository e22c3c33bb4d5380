/** One part of a user or tool message: text, or an image as base64. */
export type ModelContentPart = { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string };

/** A tool call as the model emitted it; `argumentsText` is raw JSON text, checked by the planner. */
export interface ModelToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

/** A message of the provider-neutral conversation. */
export type ModelMessage =
  | { role: 'user'; content: ModelContentPart[] }
  | { role: 'assistant'; text: string; toolCalls: ModelToolCall[] }
  | { role: 'tool'; callId: string; name: string; content: string; isError: boolean; images?: ModelContentPart[] };

/** A function tool offered to the model (the name is already wire-safe). */
export interface ModelToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One request: the stable prefix (system + tools) and the conversation after it. */
export interface ModelRequest {
  system: string;
  /** Sorted by name by the context builder so the prefix stays byte-identical across steps. */
  tools: ModelToolDefinition[];
  messages: ModelMessage[];
  /** Messages at the start of `messages` that are stable for the whole task (cache breakpoint after them). */
  stableMessages?: number;
  maxOutputTokens?: number;
  /** Offer the provider's computer-use tool for a screen of this size (model space). */
  computer?: { width: number; height: number };
  /** Safety checks the user approved, acknowledged with the computer-call output they belong to. */
  acknowledgedSafetyChecks?: Record<string, PendingSafetyCheck[]>;
}

/** Tokens one call used; `cachedInputTokens` is the part of the input served from the provider's prompt cache. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/** A safety check the provider wants acknowledged before an action runs (OpenAI computer use). */
export interface PendingSafetyCheck {
  /** The computer call it belongs to. */
  callId: string;
  id: string;
  code: string;
  message: string;
}

/** The model's answer to one request. */
export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
  stopReason: 'end' | 'tool_calls' | 'max_tokens' | 'other';
  model: string;
  /** Computer-use safety checks attached to the calls of this answer. */
  safetyChecks?: PendingSafetyCheck[];
  /** The model's reasoning summary, where the provider returns one (Responses reasoning summaries, Anthropic thinking). */
  reasoning?: string;
}

/** Per-call options: cancellation and streamed text. */
export interface ModelCallOptions {
  signal: AbortSignal;
  onText?: (delta: string) => void;
}

/** A model behind some wire protocol; adapters implement it on the official SDKs. */
export interface ModelProvider {
  /** Which adapter, e.g. `openai-chat`. */
  readonly kind: string;
  readonly model: string;
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>;
}

/** Why a model call failed; `retryable` drives the backoff loop. */
export type ModelErrorCode = 'rate_limited' | 'server' | 'timeout' | 'network' | 'stream_cut' | 'cancelled' | 'auth' | 'bad_request';

/** A failed model call with a stable code and, for 429/503, how long the provider asked us to wait. */
export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** Zero usage, for summing. */
export const NO_USAGE: ModelUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

/** Adds two usages. */
export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  };
}
