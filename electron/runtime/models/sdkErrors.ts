import { ModelError } from './types.js';

/** The shape both official SDKs give their API errors (status + headers), read by duck typing. */
interface SdkLikeError {
  name?: string;
  message?: string;
  status?: number;
  headers?: { get?(name: string): string | null } | Record<string, string>;
}

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(headers: SdkLikeError['headers'], now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | null | undefined =>
    typeof headers.get === 'function' ? headers.get(name) : (headers as Record<string, string>)[name];
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') && Number.isFinite(ms)) return Math.max(0, ms);
  const raw = get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Maps an error thrown by `openai` or `@anthropic-ai/sdk` (or fetch) to a ModelError. */
export function toModelError(error: unknown, signal: AbortSignal, provider: string): ModelError {
  if (error instanceof ModelError) return error;
  const e = (error ?? {}) as SdkLikeError;
  const message = `${provider}: ${e.message ?? String(error)}`;
  if (signal.aborted || e.name === 'APIUserAbortError' || e.name === 'AbortError') {
    return new ModelError('cancelled', `${provider}: the call was cancelled`, false);
  }
  if (e.name === 'APIConnectionTimeoutError') return new ModelError('timeout', message, true);
  if (e.name === 'APIConnectionError') return new ModelError('network', message, true);
  const status = e.status;
  if (typeof status === 'number') {
    const after = retryAfterMs(e.headers);
    if (status === 429) return new ModelError('rate_limited', message, true, after, status);
    if (status === 408) return new ModelError('timeout', message, true, after, status);
    if (status >= 500) return new ModelError('server', message, true, after, status);
    if (status === 401 || status === 403)
      return new ModelError('auth', `${message} (check the provider's API key)`, false, undefined, status);
    return new ModelError('bad_request', message, false, undefined, status);
  }
  return new ModelError('network', message, true);
}
