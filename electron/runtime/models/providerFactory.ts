import type { Clock } from '../clock.js';
import { AgentDeskError } from '../errors.js';
import type { ProviderConfig } from '../../contract/index.js';
import { ANTHROPIC_COMPUTER_BETAS, AnthropicProvider, type AnthropicComputerVersion } from './anthropicMessages.js';
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
  /** How a desktop is offered (see `ProviderConfig.computerUse`). */
  computerUse?: ProviderConfig['computerUse'];
}

/** The adapters by provider kind; `registerAdapter` adds more. */
const adapters = new Map<ProviderSpec['provider'], (spec: ProviderSpec) => ModelProvider>([
  ['openai-chat', ({ computerUse, ...spec }) => new OpenAiChatProvider({ ...spec, ...chatComputerUse(computerUse) })],
  ['openai-responses', ({ computerUse: _responsesHasOne, ...spec }) => new OpenAiResponsesProvider(spec)],
  ['anthropic', ({ computerUse, ...spec }) => new AnthropicProvider({ ...spec, ...anthropicComputerUse(computerUse) })],
]);

function chatComputerUse(mode: ProviderSpec['computerUse']): { computerUse?: 'ui-tars' | 'function' } {
  return mode === 'ui-tars' || mode === 'function' ? { computerUse: mode } : {};
}

function anthropicComputerUse(mode: ProviderSpec['computerUse']): { computerToolVersion?: AnthropicComputerVersion } {
  return mode && mode in ANTHROPIC_COMPUTER_BETAS ? { computerToolVersion: mode as AnthropicComputerVersion } : {};
}

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
