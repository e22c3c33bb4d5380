import type { Clock } from '../clock.js';
import { toModelError } from './sdkErrors.js';
import { ModelError, type ModelCallOptions, type ModelProvider, type ModelRequest, type ModelResponse } from './types.js';

/** How a provider call is retried. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Defaults: 4 retries, 500 ms doubling to at most 30 s; a provider's retry-after wins when given. */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/** What happened to each attempt, for the trace. */
export interface RetryNote {
  attempt: number;
  code: string;
  waitMs: number;
}

/**
 * Wraps a provider: 429, 5xx, timeouts, network errors and cut streams are retried with
 * exponential backoff (or the provider's retry-after); cancellation and 4xx are not.
 */
export class RetryingProvider implements ModelProvider {
  readonly kind: string;
  readonly model: string;
  /** Retries made over this provider's life (for usage reports). */
  retries = 0;

  constructor(
    private readonly inner: ModelProvider,
    private readonly clock: Clock,
    private readonly policy: RetryPolicy = DEFAULT_RETRY,
    private readonly onRetry?: (note: RetryNote) => void,
  ) {
    this.kind = inner.kind;
    this.model = inner.model;
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.inner.complete(request, options);
      } catch (thrown) {
        const error = toModelError(thrown, options.signal, this.inner.kind);
        if (!error.retryable || attempt > this.policy.maxRetries || options.signal.aborted) throw error;
        const backoff = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
        const waitMs = Math.min(this.policy.maxDelayMs, error.retryAfterMs ?? backoff);
        this.retries++;
        this.onRetry?.({ attempt, code: error.code, waitMs });
        try {
          await this.clock.sleep(waitMs, options.signal);
        } catch {
          throw new ModelError('cancelled', `${this.inner.kind}: cancelled while waiting to retry`, false);
        }
      }
    }
  }
}
