import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Clock } from '../../clock.js';
import { ModelError, type ModelCallOptions, type ModelProvider, type ModelRequest, type ModelResponse } from '../../models/types.js';
import type { Redactor } from '../redactor.js';
import { AGENT_DESK, GEN_AI, GEN_AI_OPERATION, OTEL } from './genAiAttributes.js';
import { contentText, finishReason, inputMessages, outputMessages, reasonText, setRedacted } from './spanContent.js';
import type { TaskTelemetry } from './taskTelemetry.js';

/** `gen_ai.provider.name` of an adapter: the vendor whose wire protocol it speaks. */
export function providerNameOf(adapter: string): string {
  if (adapter === 'anthropic') return 'anthropic';
  if (adapter.startsWith('openai')) return 'openai';
  return adapter;
}

/**
 * One `chat {model}` span per model call of a task, a child of the task's span; the call runs
 * inside it, so the adapters' HTTP requests carry its `traceparent`. Retries of one call stay
 * inside its span. Messages are exported only with `captureContent`, after the redactor.
 */
export class TracedProvider implements ModelProvider {
  constructor(
    private readonly inner: ModelProvider,
    private readonly telemetry: TaskTelemetry,
    private readonly taskId: string,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
  ) {}

  get kind(): string {
    return this.inner.kind;
  }

  get model(): string {
    return this.inner.model;
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const parent = this.telemetry.parentOf(this.taskId);
    // The model is known once a lazy provider resolved, i.e. inside the call: named again at the end.
    const span = this.telemetry.tracer.startSpan(
      `${GEN_AI_OPERATION.chat} ${this.inner.model}`.trim(),
      { kind: SpanKind.CLIENT, startTime: this.clock.now() },
      parent,
    );
    try {
      const response = await context.with(trace.setSpan(parent, span), () => this.inner.complete(request, options));
      this.answered(span, request, response);
      return response;
    } catch (error) {
      this.failed(span, request, error, options.signal);
      throw error;
    } finally {
      span.end(this.clock.now());
    }
  }

  private requestAttributes(request: ModelRequest): Record<string, string | number | undefined> {
    const capture = this.telemetry.captureContent;
    return {
      [GEN_AI.operationName]: GEN_AI_OPERATION.chat,
      [GEN_AI.providerName]: providerNameOf(this.inner.kind),
      [GEN_AI.requestModel]: this.inner.model,
      [GEN_AI.requestMaxTokens]: request.maxOutputTokens,
      [GEN_AI.conversationId]: this.taskId,
      [AGENT_DESK.modelAdapter]: this.inner.kind,
      ...(capture && {
        [GEN_AI.systemInstructions]: JSON.stringify([{ type: 'text', content: contentText(request.system, this.redactor) }]),
        [GEN_AI.inputMessages]: contentText(inputMessages(request), this.redactor),
      }),
    };
  }

  private answered(span: Span, request: ModelRequest, response: ModelResponse): void {
    span.updateName(`${GEN_AI_OPERATION.chat} ${this.inner.model}`);
    setRedacted(span, this.redactor, {
      ...this.requestAttributes(request),
      [GEN_AI.responseModel]: response.model || this.inner.model,
      [GEN_AI.responseFinishReasons]: [finishReason(response.stopReason)],
      [GEN_AI.usageInputTokens]: response.usage.inputTokens,
      [GEN_AI.usageOutputTokens]: response.usage.outputTokens,
      [GEN_AI.usageCacheReadInputTokens]: response.usage.cachedInputTokens,
      ...(this.telemetry.captureContent && { [GEN_AI.outputMessages]: contentText(outputMessages(response), this.redactor) }),
    });
    span.setStatus({ code: SpanStatusCode.OK });
  }

  private failed(span: Span, request: ModelRequest, error: unknown, signal: AbortSignal): void {
    span.updateName(`${GEN_AI_OPERATION.chat} ${this.inner.model}`);
    const type = error instanceof ModelError ? error.code : signal.aborted ? 'cancelled' : 'error';
    const message = reasonText(error instanceof Error ? error.message : String(error), this.redactor, this.telemetry.captureContent);
    setRedacted(span, this.redactor, { ...this.requestAttributes(request), [OTEL.errorType]: type });
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  }
}
