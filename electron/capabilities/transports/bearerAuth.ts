import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { scopesOfRoles, type Caller, type GatewayToken, type Person, type Scope } from '../../contract/index.js';

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

/** Who a connection acts as: its scopes, a label for logs and decisions, and whether it still holds. */
export interface Credential {
  scopes: readonly Scope[];
  /** Prefixes the connection's client id, e.g. `token:phone` (none for the gateway's own token). */
  label?: string;
  /** Asked before each call, so a revoked token stops working on open connections too. */
  stillValid(): Promise<boolean>;
  /** The signed-in person the token belongs to (absent: the local operator). */
  caller?: Caller;
}

/** Looks up an issued token by the secret a client presented. */
export type TokenVerifier = (presented: string) => Promise<Credential | undefined>;

/** What an issued-token store offers the transport (the runtime's TokenRepo implements it). */
export interface IssuedTokens {
  authenticate(secret: string, now: number): Promise<GatewayToken | undefined>;
  isLive(id: string, now?: number): Promise<boolean>;
}

/** Where a person's token finds its person (the runtime's PeopleRepo). */
export interface KnownPeople {
  get(subject: string): Promise<Person | undefined>;
}

/**
 * A verifier over issued tokens: each carries the scopes it was issued with, and no more. A
 * person's token acts as them, within the scopes their roles give now; a removed person's
 * tokens open nothing, and their open connections stop answering.
 */
export function issuedTokenVerifier(tokens: IssuedTokens, people?: KnownPeople): TokenVerifier {
  return async (presented) => {
    const token = await tokens.authenticate(presented, Date.now());
    if (!token) return undefined;
    if (token.subject === undefined || !people) {
      return { scopes: token.scopes, label: `token:${token.name ?? token.id}`, stillValid: () => tokens.isLive(token.id) };
    }
    const subject = token.subject;
    const person = await people.get(subject);
    if (!person || person.disabledAt !== undefined) return undefined;
    const scopes = withinRoles(token.scopes, person);
    if (scopes.length === 0) return undefined;
    const stillValid = async () => {
      const now = await people.get(subject);
      // Roles taken away mid-connection end it: the client reconnects with what remains.
      return now?.disabledAt === undefined && withinRoles(token.scopes, now!).length === scopes.length && tokens.isLive(token.id);
    };
    const caller: Caller = { subject, name: person.name, roles: person.roles, groups: person.groups, signedIn: true };
    return { scopes, label: `person:${person.name}`, stillValid, caller };
  };
}

const withinRoles = (scopes: readonly Scope[], person: Person): Scope[] => {
  const allowed = new Set(scopesOfRoles(person.roles));
  return scopes.filter((s) => allowed.has(s));
};

/**
 * The credential an upgrade request proves: the gateway's default token (every scope it is
 * configured with), else an issued token (its own scopes); undefined when neither matches.
 */
export async function authenticate(
  req: IncomingMessage,
  defaultToken: { token: string; scopes: readonly Scope[] },
  issued?: TokenVerifier,
): Promise<Credential | undefined> {
  if (isAuthorized(req, defaultToken.token)) return { scopes: defaultToken.scopes, stillValid: () => Promise.resolve(true) };
  if (!issued) return undefined;
  for (const candidate of presentedTokens(req)) {
    const credential = await issued(candidate);
    if (credential) return credential;
  }
  return undefined;
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
