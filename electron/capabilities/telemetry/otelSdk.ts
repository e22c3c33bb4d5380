import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TelemetryOptions } from '../../runtime/trace/telemetry/taskTelemetry.js';
import type { TelemetrySettings } from './telemetrySettings.js';
import { WarnOnceExporter } from './warnOnceExporter.js';

/** The longest a closing process waits for its last spans to leave (an unreachable collector must not hold up exit). */
const SHUTDOWN_WAIT_MS = 2_000;
/** How long one export may take before it counts as failed. */
const EXPORT_TIMEOUT_MS = 5_000;

/** A running OpenTelemetry SDK: what the runtime is given, and how to flush and stop it. */
export interface TelemetrySdk {
  options: TelemetryOptions;
  /** Sends what is queued and stops; waits at most a couple of seconds, never throws. */
  shutdown(): Promise<void>;
}

let processWideInstalled = false;

/**
 * The context manager (AsyncLocalStorage) and W3C propagator are process-wide, as the API
 * expects; they are installed once. The tracer provider is not registered globally: each
 * runtime passes its own tracer, so two runtimes in one process (tests, eval) stay apart.
 */
function installProcessWide(): void {
  if (processWideInstalled) return;
  processWideInstalled = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** Starts the SDK: OTLP/HTTP (JSON) exporter behind a batch processor, resource `service.name=agent-desk`. */
export function startTelemetry(settings: TelemetrySettings, version: string, warn: (line: string) => void): TelemetrySdk {
  installProcessWide();
  const otlp = new OTLPTraceExporter({
    ...(settings.tracesUrl !== undefined && { url: settings.tracesUrl }),
    ...(Object.keys(settings.headers).length > 0 && { headers: settings.headers }),
    timeoutMillis: EXPORT_TIMEOUT_MS,
  });
  const exporter = new WarnOnceExporter(otlp, settings.endpointShown, warn);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'agent-desk', [ATTR_SERVICE_VERSION]: version }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults.
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000, exportTimeoutMillis: EXPORT_TIMEOUT_MS })],
  });
  const flush = () => void provider.forceFlush().catch(() => undefined);
  return {
    options: { tracer: provider.getTracer('agent-desk', version), captureContent: settings.captureContent, onTaskEnded: flush },
    shutdown: () => withinMs(provider.shutdown(), SHUTDOWN_WAIT_MS),
  };
}

function withinMs(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([work.catch(() => undefined), waited]).finally(() => clearTimeout(timer));
}
