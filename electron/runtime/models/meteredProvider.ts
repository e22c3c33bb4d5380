import type { Clock } from '../clock.js';
import { costOf, type PriceTable } from './pricing.js';
import {
  ModelError,
  NO_USAGE,
  type ModelCallOptions,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelUsage,
} from './types.js';

/** One model call as the trace records it (`model.call`). */
export interface MeteredCall {
  provider: string;
  model: string;
  tokensIn: number;
  tokensOut: number;
  tokensCached: number;
  costUsd: number;
  durationMs: number;
  /** Set when the call failed (after retries): the error code. */
  error?: string;
}

/**
 * Measures every call of a provider (tokens, cost, duration) and reports it, so each model
 * call leaves a trace event whoever made it (the planner or intent).
 */
export class MeteredProvider implements ModelProvider {
  readonly kind: string;

  constructor(
    private readonly inner: ModelProvider,
    private readonly meter: { clock: Clock; prices: PriceTable; onCall: (call: MeteredCall) => void },
  ) {
    this.kind = inner.kind;
  }

  get model(): string {
    return this.inner.model;
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const started = this.meter.clock.now();
    try {
      const response = await this.inner.complete(request, options);
      this.report(response.model || this.inner.model, response.usage, started);
      return response;
    } catch (error) {
      const code = error instanceof ModelError ? error.code : options.signal.aborted ? 'cancelled' : 'error';
      this.report(this.inner.model, NO_USAGE, started, code);
      throw error;
    }
  }

  private report(model: string, usage: ModelUsage, started: number, error?: string): void {
    this.meter.onCall({
      provider: this.inner.kind,
      model,
      tokensIn: usage.inputTokens,
      tokensOut: usage.outputTokens,
      tokensCached: usage.cachedInputTokens,
      costUsd: costOf(this.meter.prices, model, usage),
      durationMs: Math.max(0, this.meter.clock.now() - started),
      ...(error !== undefined && { error }),
    });
  }
}

/** A provider built on first use, so a goal task is created before its model is resolved. */
export class LazyProvider implements ModelProvider {
  private resolved: ModelProvider | undefined;

  constructor(private readonly make: () => ModelProvider | Promise<ModelProvider>) {}

  /** Builds the provider now; rejects with the resolution error (unknown provider, missing key). */
  async resolve(): Promise<ModelProvider> {
    this.resolved ??= await this.make();
    return this.resolved;
  }

  get kind(): string {
    return this.resolved?.kind ?? 'unresolved';
  }

  get model(): string {
    return this.resolved?.model ?? '';
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    return (await this.resolve()).complete(request, options);
  }
}
