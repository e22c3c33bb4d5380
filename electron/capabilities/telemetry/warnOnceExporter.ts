import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';

/** `ExportResultCode` values, spelled here so this file loads no SDK code of its own. */
const SUCCESS = 0;
const FAILED = 1;

/**
 * An exporter that says once, in one line, that spans could not be delivered (an unreachable or
 * refusing collector), and never throws: telemetry must not fail or hold up a task.
 */
export class WarnOnceExporter implements SpanExporter {
  private warned = false;
  /** True once an export failed: a closing process then does not wait for the collector again. */
  failed = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly endpoint: string,
    private readonly warn: (line: string) => void,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    try {
      this.inner.export(spans, (result) => {
        if (result.code !== SUCCESS) this.warnOnce(result.error);
        done(result);
      });
    } catch (error) {
      this.warnOnce(error);
      done({ code: FAILED, error: error as Error });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown().catch((error: unknown) => this.warnOnce(error));
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.().catch((error: unknown) => this.warnOnce(error)) ?? Promise.resolve();
  }

  /** Says once why spans were not delivered. */
  warnOnce(error: unknown): void {
    this.failed = true;
    if (this.warned) return;
    this.warned = true;
    const why = error instanceof Error ? error.message || error.name : String(error ?? 'unknown error');
    this.warn(`telemetry: spans could not be sent to ${this.endpoint} (${why}); tasks run on, further export errors are not shown`);
  }
}
