import { ToolError } from '../types.js';

// Failures where the request never reached the server, so repeating it cannot duplicate an effect.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TLS_CODE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/;

/** What was known about the call when fetch failed. */
export interface FetchFailureContext {
  /** `POST http://host/path`, for messages. */
  request: string;
  idempotent: boolean;
  callerSignal: AbortSignal;
  timeoutSignal: AbortSignal;
  timeoutMs: number;
}

/**
 * Maps a fetch failure to a ToolError. Retryable when the request surely was not sent
 * (connection refused, DNS), or when repeating it is harmless (idempotent) after a timeout or reset.
 * A timeout or reset of a request that is not idempotent may have had its effect: effect unknown.
 */
export function toolErrorFromFetch(error: unknown, call: FetchFailureContext): ToolError {
  if (error instanceof ToolError) return error;
  if (call.callerSignal.aborted) return new ToolError(`${call.request} was cancelled`, call.idempotent, 'aborted');
  if (call.timeoutSignal.aborted) {
    return new ToolError(`${call.request} timed out after ${call.timeoutMs} ms`, call.idempotent, 'timeout', !call.idempotent);
  }
  const code = causeCode(error);
  if (NOT_SENT_CODES.has(code)) {
    return new ToolError(`${call.request} failed: could not connect (${code}); the request was not sent`, true, 'connection_failed');
  }
  if (TLS_CODE.test(code)) {
    return new ToolError(`${call.request} failed: TLS error (${code}); check the server certificate`, false, 'tls_error');
  }
  const detail = code === '' ? describe(error) : code;
  return new ToolError(`${call.request} failed: ${detail}`, call.idempotent, 'network_error', !call.idempotent);
}

/** fetch wraps the socket error as `cause`; several addresses give an AggregateError of them. */
function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | undefined)?.cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return typeof code === 'string' ? code : '';
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
