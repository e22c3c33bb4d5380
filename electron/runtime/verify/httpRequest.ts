import { errorText } from './measure.js';

/** A request a check makes: method, a time limit, and the task's cancellation. */
export interface CheckRequest {
  method: 'GET' | 'HEAD';
  timeoutMs: number;
  signal: AbortSignal;
}

/** Fetches with a deadline covering the body too; redirects are followed as a browser would. */
export async function fetchForCheck(url: string, request: CheckRequest): Promise<Response> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  return fetch(url, { method: request.method, signal, headers: { accept: 'application/json, */*' } });
}

/** A failed request as a check output: timeout, cancellation, or the network error. */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown } | undefined)?.name;
  if (name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (name === 'AbortError') return 'cancelled';
  return `request failed: ${errorText(error)}`;
}
