import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import { tracedFetch } from '../trace/telemetry/propagation.js';

/** Connection settings shared by the OpenAI-protocol adapters. */
export interface OpenAiClientOptions {
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
  /** Extra request headers (non-secret). */
  headers?: Record<string, string>;
}

/**
 * An `openai` SDK client with its own retries off: RetryingProvider retries uniformly for every
 * adapter. Local servers (Ollama, vLLM, LM Studio) accept any key.
 */
export function openAiClient(options: OpenAiClientOptions): OpenAI {
  // Loaded on first use: the SDK costs every CLI start ~0.1 s otherwise.
  const { OpenAI: Sdk } = createRequire(import.meta.url)('openai') as typeof import('openai');
  return new Sdk({
    apiKey: options.apiKey ?? 'not-needed',
    ...(options.baseURL && { baseURL: options.baseURL }),
    timeout: options.timeoutMs ?? 120_000,
    maxRetries: 0,
    // Carries the model call's trace context (traceparent) when telemetry is on.
    fetch: tracedFetch,
    ...(options.headers && { defaultHeaders: options.headers }),
  });
}
