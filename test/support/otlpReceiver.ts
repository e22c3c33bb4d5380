import { RecordingServer } from './recordingServer.js';

/** An OTLP/JSON attribute value as the exporter encodes it. */
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  events?: { name: string; timeUnixNano: string | number; attributes?: KeyValue[] }[];
  status?: { code?: number; message?: string };
}

/** A span as received, decoded: attributes as a plain object, times in nanoseconds as bigints. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
}

function decodeValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function decodeAttributes(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, decodeValue(kv.value)]));
}

/**
 * A local OTLP/HTTP receiver: a real HTTP server that accepts `POST /v1/traces` with the JSON
 * encoding (what @opentelemetry/exporter-trace-otlp-http sends), keeps every raw body, and decodes
 * the spans in them.
 */
export class OtlpReceiver {
  private readonly http = new RecordingServer({});

  /** Starts listening; resolves to the base URL (for OTEL_EXPORTER_OTLP_ENDPOINT). */
  start(): Promise<string> {
    return this.http.start();
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** Every request exactly as received (headers and bodies), to search for what must not be there. */
  everything(): string {
    return this.http.everything();
  }

  get requests() {
    return this.http.requests;
  }

  /** Every span received, decoded. */
  spans(): ReceivedSpan[] {
    const out: ReceivedSpan[] = [];
    for (const request of this.http.requests) {
      if (request.method !== 'POST' || request.url !== '/v1/traces') continue;
      const body = JSON.parse(request.body) as {
        resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
      };
      for (const rs of body.resourceSpans ?? []) {
        const resource = decodeAttributes(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            out.push({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: s.kind,
              start: BigInt(s.startTimeUnixNano),
              end: BigInt(s.endTimeUnixNano),
              attributes: decodeAttributes(s.attributes),
              events: (s.events ?? []).map((e) => ({ name: e.name, attributes: decodeAttributes(e.attributes) })),
              status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
              resource,
            });
      }
    }
    return out;
  }
}
