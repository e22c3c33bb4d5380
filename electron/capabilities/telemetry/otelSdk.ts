import { createRequire } from 'node:module';
import { context, propagation } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { TelemetryOptions } from '../../runtime/trace/telemetry/taskTelemetry.js';
import type { TelemetrySettings } from './telemetrySettings.js';
import { WarnOnceExporter } from './warnOnceExporter.js';

/** The longest a closing process waits for its last spans to leave (an unreachable collector must not hold up exit). */
const SHUTDOWN_WAIT_MS = 1_000;
/**
 * How long one export (with the exporter's own retries) may take; short, because a process
 * that exits waits for an export in flight. OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT overrides it.
 */
const EXPORT_TIMEOUT_MS = 2_000;

const require = createRequire(import.meta.url);

/** The SDK packages, loaded only when telemetry is on (a process without it pays nothing for them). */
function loadSdk() {
  return {
    ...(require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks')),
    ...(require('@opentelemetry/core') as typeof import('@opentelemetry/core')),
    ...(require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')),
    ...(require('@opentelemetry/resources') as typeof import('@opentelemetry/resources')),
    ...(require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node')),
    ...(require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions')),
  };
}
type Sdk = ReturnType<typeof loadSdk>;

/** A running OpenTelemetry SDK: what the runtime is given, and how to flush and stop it. */
export interface TelemetrySdk {
  options: TelemetryOptions;
  /** Sends what is queued and stops; waits at most a second, never throws. */
  shutdown(): Promise<void>;
}

let processWideInstalled = false;

/**
 * The context manager (AsyncLocalStorage) and W3C propagator are process-wide, as the API
 * expects; they are installed once. The tracer provider is not registered globally: each
 * runtime passes its own tracer, so two runtimes in one process (tests, eval) stay apart.
 */
function installProcessWide(sdk: Sdk): void {
  if (processWideInstalled) return;
  processWideInstalled = true;
  context.setGlobalContextManager(new sdk.AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new sdk.W3CTraceContextPropagator());
}

/** Starts the SDK: OTLP/HTTP (JSON) exporter behind a batch processor, resource `service.name=agent-desk`. */
export function startTelemetry(
  settings: TelemetrySettings,
  version: string,
  warn: (line: string) => void,
  env: NodeJS.ProcessEnv,
): TelemetrySdk {
  const sdk = loadSdk();
  const timeoutFromEnv = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT;
  const otlp = new sdk.OTLPTraceExporter({
    ...(settings.tracesUrl !== undefined && { url: settings.tracesUrl }),
    ...(Object.keys(settings.headers).length > 0 && { headers: settings.headers }),
    ...(timeoutFromEnv === undefined && { timeoutMillis: EXPORT_TIMEOUT_MS }),
  });
  const exporter = new WarnOnceExporter(otlp, settings.endpointShown, warn);
  const { options, provider } = buildTracer(exporter, version, settings.captureContent, sdk);
  return {
    options,
    shutdown: async () => {
      // A collector that already failed this process is not waited for again.
      const done = await withinMs(provider.shutdown(), exporter.failed ? 0 : SHUTDOWN_WAIT_MS);
      if (!done) exporter.warnOnce(new Error(`no answer within ${SHUTDOWN_WAIT_MS} ms at exit; the last spans are dropped`));
    },
  };
}

/**
 * The tracer provider (resource, batch processor) over any exporter, and the runtime's options
 * for it; the process-wide context manager and propagator are installed on first use.
 */
export function telemetryWith(exporter: SpanExporter, version: string, captureContent: boolean): TracerSetup {
  return buildTracer(exporter, version, captureContent, loadSdk());
}

/** A tracer provider and the runtime's options for it. */
export interface TracerSetup {
  options: TelemetryOptions;
  provider: { forceFlush(): Promise<void>; shutdown(): Promise<void> };
}

function buildTracer(exporter: SpanExporter, version: string, captureContent: boolean, sdk: Sdk): TracerSetup {
  installProcessWide(sdk);
  const resource = sdk
    .defaultResource()
    .merge(sdk.resourceFromAttributes({ [sdk.ATTR_SERVICE_NAME]: 'agent-desk', [sdk.ATTR_SERVICE_VERSION]: version }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults.
    .merge(sdk.detectResources({ detectors: [sdk.envDetector] }));
  const provider = new sdk.NodeTracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  const flush = () => void provider.forceFlush().catch(() => undefined);
  const options: TelemetryOptions = {
    tracer: provider.getTracer('agent-desk', version),
    captureContent,
    onTaskEnded: flush,
    flush: async () => void (await withinMs(provider.forceFlush(), SHUTDOWN_WAIT_MS)),
  };
  return { options, provider };
}

/** True when `work` settled within `ms`. */
function withinMs(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  return Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    waited,
  ]).finally(() => clearTimeout(timer));
}
