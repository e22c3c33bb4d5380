import type { Clock } from '../clock.js';
import { AgentDeskError } from '../errors.js';
import { AnthropicProvider } from './anthropicMessages.js';
import { OpenAiChatProvider } from './openaiChat.js';
import { OpenAiResponsesProvider } from './openaiResponses.js';
import { DEFAULT_RETRY, RetryingProvider, type RetryPolicy } from './retry.js';
import type { ModelProvider } from './types.js';

/** A configured model endpoint (the key is resolved from secrets or the environment by the caller). */
export interface ProviderSpec {
  provider: 'openai-chat' | 'openai-responses' | 'anthropic';
  model: string;
  baseURL?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Extra request headers (non-secret). */
  headers?: Record<string, string>;
}

/** The adapters by provider kind; `registerAdapter` adds more. */
const adapters = new Map<ProviderSpec['provider'], (spec: ProviderSpec) => ModelProvider>([
  ['openai-chat', (spec) => new OpenAiChatProvider(spec)],
  ['openai-responses', (spec) => new OpenAiResponsesProvider(spec)],
  ['anthropic', (spec) => new AnthropicProvider(spec)],
]);

/** Makes an adapter available to `createProvider`. */
export function registerAdapter(kind: ProviderSpec['provider'], make: (spec: ProviderSpec) => ModelProvider): void {
  adapters.set(kind, make);
}

/** Builds the adapter for a spec, wrapped in retries with backoff. */
export function createProvider(spec: ProviderSpec, clock: Clock, retry: RetryPolicy = DEFAULT_RETRY): ModelProvider {
  const make = adapters.get(spec.provider);
  if (!make) throw new AgentDeskError('unavailable', `model provider "${spec.provider}" is not available in this build`);
  return new RetryingProvider(make(spec), clock, retry);
}
