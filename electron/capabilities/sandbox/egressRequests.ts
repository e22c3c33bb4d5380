import type { IncomingHttpHeaders } from 'node:http';
import type { HeldEffect } from '../../contract/index.js';
import { requestEffect } from '../../runtime/policy/effects/requestEffect.js';
import { isPaymentHost } from '../../runtime/policy/effects/riskWords.js';

/** A plain-HTTP request as the egress proxy sees it (absolute-form URL, headers, the buffered body). */
export interface ProxiedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body?: string;
}

/**
 * True when a request looks like a document navigation. Chromium names it in `Sec-Fetch-Dest`
 * toward trustworthy origins (loopback, HTTPS); over plain HTTP elsewhere only `Accept` tells.
 */
export function looksLikeNavigation(headers: IncomingHttpHeaders): boolean {
  const dest = headerText(headers['sec-fetch-dest']);
  if (dest) return dest === 'document';
  return headerText(headers.accept).startsWith('text/html');
}

/**
 * What a plain-HTTP request would do if it left, by the browser tier's own classifier: every
 * method but GET/HEAD/OPTIONS is an effect; a read only when it is a navigation the classifier
 * calls a payment (payment path or host). A navigation to another origin is no effect here:
 * in the desktop the agent opens sites by typing into the address bar, and the allowlist
 * already decided the host.
 */
export function proxiedRequestEffect(req: ProxiedRequest): HeldEffect | undefined {
  const contentType = headerText(req.headers['content-type']);
  return requestEffect({
    method: req.method,
    url: req.url.href,
    mainFrameNavigation: looksLikeNavigation(req.headers),
    pageOrigin: req.url.origin,
    ...(req.body !== undefined && { body: req.body }),
    ...(contentType && { contentType }),
  });
}

/**
 * The effect of opening an HTTPS tunnel: the proxy sees only `host:port`, so only a tunnel to a
 * known payment provider is one (a payment whatever is sent inside); any other tunnel is opaque.
 */
export function tunnelEffect(target: string): HeldEffect | undefined {
  const [hostname = ''] = target.split(/:(?=\d+$)/);
  if (!isPaymentHost(hostname)) return undefined;
  return {
    kind: 'request',
    method: 'CONNECT',
    url: `https://${target}/`,
    risk: 'payment',
    reasons: [`${hostname} is a payment provider (an HTTPS tunnel: what is sent inside is not visible)`],
  };
}

/** True when the held request should leave the page where it was: a navigation answered 204 stays put. */
export function heldAnswer(headers: IncomingHttpHeaders): { status: 204 | 403 } {
  return { status: looksLikeNavigation(headers) ? 204 : 403 };
}

function headerText(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.toLowerCase() ?? '';
}
