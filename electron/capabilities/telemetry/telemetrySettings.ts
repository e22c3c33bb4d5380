import type { Config } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';

/** Where spans go and what they carry, resolved from config.json and the standard OTEL_* variables. */
export interface TelemetrySettings {
  /** The traces URL (`…/v1/traces`); undefined: the exporter reads it from OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT. */
  tracesUrl?: string;
  /** What `tracesUrl` or the variables name, for messages. */
  endpointShown: string;
  /** Headers from config.json (OTEL_EXPORTER_OTLP_HEADERS are added by the exporter). */
  headers: Record<string, string>;
  captureContent: boolean;
}

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** Header names the OTEL_EXPORTER_OTLP_(TRACES_)HEADERS variables set (`k=v,k2=v2`), lower-cased. */
function envHeaderNames(env: NodeJS.ProcessEnv): Set<string> {
  const lists = [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS].filter(isSet);
  return new Set(lists.flatMap((list) => list.split(',').map((pair) => pair.split('=')[0]!.trim().toLowerCase())));
}

/** config.json's headers but those the variables set: the exporter would let config win, and variables win here. */
function headersUnderEnv(headers: Record<string, string>, env: NodeJS.ProcessEnv): Record<string, string> {
  const fromEnv = envHeaderNames(env);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !fromEnv.has(name.toLowerCase())));
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
}

/** The traces URL of a collector's base URL (`/v1/traces` joins the path, before any query). */
function tracesUrlOf(base: string): string {
  try {
    const url = new URL(base.trim());
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
    return url.toString();
  } catch {
    return base;
  }
}

/** An endpoint as shown in messages: no user, password or query (they may hold a key). */
function shown(url: string): string {
  try {
    const parsed = new URL(url.trim());
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

/**
 * Telemetry is off unless an endpoint is named: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (these win), or `telemetry.otlp.endpoint` in config.json.
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn it off whatever is set;
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` turns content capture on. An
 * endpoint variable that is not an http(s) URL is an AgentDeskError naming it.
 */
export function telemetrySettings(config: Config['telemetry'], env: NodeJS.ProcessEnv): TelemetrySettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const captureContent =
    config.otlp.captureContent || env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true';
  // As the exporter reads them: the traces URL as given, or the base URL with /v1/traces.
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const) {
    const value = env[name];
    // The exporter would fall back to localhost:4318 in silence; say so instead.
    if (isSet(value) && !isHttpUrl(value)) throw new AgentDeskError('invalid_params', `${name} is not an http(s) URL: "${value.trim()}"`);
  }
  if (isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) {
    return {
      endpointShown: shown(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
      headers: headersUnderEnv(config.otlp.headers, env),
      captureContent,
    };
  }
  if (isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT)) {
    return {
      endpointShown: shown(tracesUrlOf(env.OTEL_EXPORTER_OTLP_ENDPOINT)),
      headers: headersUnderEnv(config.otlp.headers, env),
      captureContent,
    };
  }
  const endpoint = config.otlp.endpoint;
  if (endpoint === undefined) return undefined;
  const tracesUrl = tracesUrlOf(endpoint);
  return { tracesUrl, endpointShown: shown(tracesUrl), headers: headersUnderEnv(config.otlp.headers, env), captureContent };
}
