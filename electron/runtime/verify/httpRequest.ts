import { errorText } from './measure.js';
import type { UrlPermit } from './types.js';

/** A request a check makes: method, a time limit, the task's cancellation, and the network gate. */
export interface CheckRequest {
  method: 'GET' | 'HEAD';
  timeoutMs: number;
  signal: AbortSignal;
  permitUrl?: UrlPermit;
}

/** Redirect hops followed before a check gives up, as browsers do. */
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A URL the network gate refused: the check fails with this reason and nothing is fetched. */
export class CheckUrlRefused extends Error {
  override readonly name = 'CheckUrlRefused';
}

/**
 * Fetches with a deadline covering the body too. Redirects are followed by hand so that every
 * hop passes the network gate: an allowlisted URL cannot bounce the check to another host.
 */
export async function fetchForCheck(url: string, request: CheckRequest): Promise<Response> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  let current = url;
  for (let hop = 0; ; hop++) {
    const refusal = request.permitUrl?.(current);
    if (refusal !== undefined) throw new CheckUrlRefused(hop === 0 ? refusal : `redirected to ${current}: ${refusal}`);
    const response = await fetch(current, {
      method: request.method,
      signal,
      redirect: 'manual',
      headers: { accept: 'application/json, */*' },
    });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    current = new URL(location, current).href;
  }
}

/** A failed request as a check output: refusal, timeout, cancellation, or the network error. */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof CheckUrlRefused) return `not fetched: ${error.message}`;
  const name = (error as { name?: unknown } | undefined)?.name;
  if (name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (name === 'AbortError') return 'cancelled';
  return `request failed: ${errorText(error)}`;
}
