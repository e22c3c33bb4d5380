import type { IncomingMessage } from 'node:http';
import { isLoopback } from '../../transports/wsServer.js';

/** Names under which a loopback-bound server may be addressed. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * DNS rebinding defence: a page on `evil.example` that re-points its name at 127.0.0.1 reaches
 * the server with `Host: evil.example` and `Origin: http://evil.example`. Only a Host naming this
 * server (`127.0.0.1|localhost|[::1]:<port>`, or the explicit bind address) passes, and an Origin,
 * when a browser sends one, must be one of those same authorities. Returns why a request is refused.
 */
export function foreignRequest(req: IncomingMessage, bind: { host: string; port: number }): string | undefined {
  const allowed = allowedAuthorities(bind);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowed.has(host)) return `Host "${req.headers.host ?? ''}" is not this server (expected ${[...allowed][0]})`;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let authority: string | undefined;
  try {
    const url = new URL(origin);
    authority = url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
  } catch {
    authority = undefined;
  }
  if (authority === undefined || !allowed.has(authority)) return `Origin "${origin}" is not this server`;
  return undefined;
}

function allowedAuthorities(bind: { host: string; port: number }): Set<string> {
  const bound = bind.host.includes(':') && !bind.host.startsWith('[') ? `[${bind.host}]` : bind.host;
  const names = isLoopback(bind.host) ? [bound, ...LOOPBACK_NAMES] : [bound];
  return new Set(names.map((name) => `${name.toLowerCase()}:${bind.port}`));
}
