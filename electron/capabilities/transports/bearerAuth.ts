import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Browsers cannot set headers on a WebSocket, so they offer the token as subprotocol `bearer.<token>`. */
export const BEARER_SUBPROTOCOL_PREFIX = 'bearer.';

/**
 * True when the upgrade request carries `token` as `Authorization: Bearer <token>`,
 * a `?token=<token>` query parameter, or a `bearer.<token>` subprotocol.
 */
export function isAuthorized(req: IncomingMessage, token: string): boolean {
  // Every candidate is compared, so timing does not reveal which one was present.
  let ok = false;
  for (const candidate of presentedTokens(req)) ok = tokensMatch(token, candidate) || ok;
  return ok;
}

/** Constant-time comparison: both sides are hashed first so lengths never differ. */
export function tokensMatch(expected: string, presented: string): boolean {
  return timingSafeEqual(sha256(expected), sha256(presented));
}

/**
 * The subprotocol to accept: a browser drops a connection whose offered protocols get no
 * answer, so echo the first non-token protocol, else the bearer one.
 */
export function chooseSubprotocol(offered: ReadonlySet<string>): string | false {
  const list = [...offered];
  return list.find((p) => !p.startsWith(BEARER_SUBPROTOCOL_PREFIX)) ?? list[0] ?? false;
}

function presentedTokens(req: IncomingMessage): string[] {
  const tokens: string[] = [];
  const header = req.headers.authorization;
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) tokens.push(bearer);
  const query = requestUrl(req)?.searchParams.get('token');
  if (query) tokens.push(query);
  for (const protocol of (req.headers['sec-websocket-protocol'] ?? '').split(',')) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(BEARER_SUBPROTOCOL_PREFIX)) tokens.push(trimmed.slice(BEARER_SUBPROTOCOL_PREFIX.length));
  }
  return tokens;
}

/** The request target as a URL, or undefined when it does not parse. */
export function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', 'http://gateway.invalid');
  } catch {
    return undefined;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
