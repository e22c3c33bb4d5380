const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** URL schemes http.request may reach. */
export const HTTP_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/** A response and the URL it finally came from. */
export interface FetchedResponse {
  response: Response;
  url: URL;
}

/**
 * fetch that follows redirects only when `follow` is set and only within the same origin
 * (scheme, host and port): the policy gate approved this host:port, and a redirect elsewhere —
 * the same host on another port included — must not bypass its allowlist.
 * Any other redirect is returned as the response, with its Location header.
 */
export async function fetchFollowingSameHost(url: URL, init: RequestInit, follow: boolean): Promise<FetchedResponse> {
  let current = url;
  for (let hops = 0; ; hops += 1) {
    const response = await fetch(current, { ...init, redirect: 'manual' });
    const next = follow && hops < MAX_REDIRECTS ? redirectTarget(response, current) : undefined;
    if (next === undefined || next.origin !== url.origin) return { response, url: current };
    await response.body?.cancel().catch(() => undefined);
    current = next;
  }
}

function redirectTarget(response: Response, base: URL): URL | undefined {
  const location = response.headers.get('location');
  if (!REDIRECT_STATUSES.has(response.status) || location === null) return undefined;
  try {
    const next = new URL(location, base);
    return HTTP_PROTOCOLS.has(next.protocol) ? next : undefined;
  } catch {
    return undefined;
  }
}
