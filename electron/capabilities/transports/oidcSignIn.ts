import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import * as client from 'openid-client';
import type { OidcConfig, Person, Role } from '../../contract/index.js';
import { requestUrl } from './bearerAuth.js';

/** What signing a person in writes: the person (their claims now) and a session token for them. */
export interface SignInStore {
  /** Records the sign-in; the stored person (a removed one stays removed). */
  signedIn(p: { subject: string; name: string; email?: string; roles: Role[]; groups: string[] }): Promise<Person>;
  /** A token acting as the person, expiring after the configured hours; its secret. */
  issueSession(person: Person, expiresAt: Date): Promise<string>;
  /** True the first time a digest is seen (an ID token presented twice is refused the second time). */
  firstUse(digest: string, expiresAt: Date): Promise<boolean>;
}

/** Why a sign-in was refused, for the person (never a stack trace, never a token). */
export class SignInRefused extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

// A started sign-in (browser gone to the provider) is forgotten after this long.
const PENDING_MS = 10 * 60_000;

interface Pending {
  verifier: string;
  nonce: string;
  at: number;
}

/** The ID token claims a sign-in reads. */
type Claims = JWTPayload & { name?: string; preferred_username?: string; email?: string; [claim: string]: unknown };

/**
 * Sign-in with an OpenID provider, served by the gateway:
 * - `GET /auth/login` → the provider (authorization code + PKCE + nonce);
 * - `GET /auth/callback` ← the provider: the code is exchanged (openid-client checks state,
 *   PKCE, nonce, issuer, audience, expiry, signature), the person recorded, and the browser sent
 *   to the web UI with a session token in the fragment (`/#token=…`, never sent to a server);
 * - `POST /auth/exchange` `{"id_token": …}` (a CLI that signed in with the provider itself):
 *   the ID token's signature, issuer, audience and expiry are checked, and it is taken once.
 * - `GET /auth/config`: whether sign-in is on, and the provider (for the UI and the CLI).
 */
export function oidcSignIn(
  oidc: OidcConfig,
  store: SignInStore,
  clientSecret?: string,
  log: (message: string, fields: Record<string, unknown>) => void = (m, f) => console.error(m, f),
) {
  const pending = new Map<string, Pending>();
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () =>
    (discovered ??= discover(oidc, clientSecret).catch((e: unknown) => ((discovered = undefined), Promise.reject(e))));
  const jwks = () => configuration().then((c) => createRemoteJWKSet(new URL(c.serverMetadata().jwks_uri!)));

  const person = async (claims: Claims): Promise<Person> => {
    const groups = groupsOf(claims, oidc.groupsClaim);
    const signed = await store.signedIn({
      subject: `${oidc.issuer}#${claims.sub}`,
      name: String(claims.name ?? claims.preferred_username ?? claims.email ?? claims.sub),
      ...(typeof claims.email === 'string' && { email: claims.email }),
      roles: rolesFor(groups, oidc),
      groups,
    });
    if (signed.disabledAt !== undefined) throw new SignInRefused(403, `${signed.name} was removed by an admin and may not sign in`);
    return signed;
  };
  const session = async (p: Person) => store.issueSession(p, new Date(Date.now() + oidc.sessionHours * 3_600_000));

  const login = async (req: IncomingMessage, res: ServerResponse) => {
    const config = await configuration();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    sweep(pending);
    pending.set(state, { verifier, nonce, at: Date.now() });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(oidc, req),
      scope: oidc.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    res.writeHead(302, { location: url.href, 'cache-control': 'no-store' }).end();
  };

  const callback = async (req: IncomingMessage, res: ServerResponse) => {
    const current = new URL(req.url ?? '/', redirectUri(oidc, req));
    const state = current.searchParams.get('state') ?? '';
    const started = pending.get(state);
    pending.delete(state); // one use: a replayed callback finds nothing
    if (!started || Date.now() - started.at > PENDING_MS)
      throw new SignInRefused(400, 'this sign-in expired or was already used; sign in again');
    const error = current.searchParams.get('error');
    if (error) throw new SignInRefused(401, `the identity provider refused the sign-in: ${error}`);
    const tokens = await client
      .authorizationCodeGrant(await configuration(), current, {
        pkceCodeVerifier: started.verifier,
        expectedState: state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      })
      .catch((e: unknown) => {
        throw new SignInRefused(401, `the sign-in could not be verified: ${reasonOf(e)}`);
      });
    const secret = await session(await person(tokens.claims() as Claims));
    res.writeHead(302, { location: `/#token=${encodeURIComponent(secret)}`, 'cache-control': 'no-store' }).end();
  };

  const exchange = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJson(req);
    const idToken = typeof body?.id_token === 'string' ? body.id_token : undefined;
    if (!idToken) throw new SignInRefused(400, 'POST /auth/exchange takes {"id_token": "<the provider’s ID token>"}');
    const config = await configuration();
    const claims = await jwtVerify<Claims>(idToken, await jwks(), {
      issuer: config.serverMetadata().issuer,
      audience: [oidc.clientId, ...(oidc.cliClientId ? [oidc.cliClientId] : [])],
      requiredClaims: ['sub', 'exp', 'iat'],
    }).then(
      (r) => r.payload,
      (e: unknown) => {
        throw new SignInRefused(401, `the ID token was refused: ${reasonOf(e)}`);
      },
    );
    const digest = createHash('sha256').update(idToken).digest('hex');
    if (!(await store.firstUse(digest, new Date(claims.exp! * 1000))))
      throw new SignInRefused(401, 'this ID token was already used to sign in');
    const p = await person(claims);
    sendJson(res, 200, { token: await session(p), subject: p.subject, name: p.name, roles: p.roles });
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = requestUrl(req)?.pathname;
    const route =
      req.method === 'GET' && path === '/auth/login'
        ? login
        : req.method === 'GET' && path === '/auth/callback'
          ? callback
          : req.method === 'POST' && path === '/auth/exchange'
            ? exchange
            : req.method === 'GET' && path === '/auth/config'
              ? (_: IncomingMessage, r: ServerResponse) => sendJson(r, 200, publicConfig(oidc))
              : undefined;
    if (!route) return false;
    try {
      await route(req, res);
    } catch (e) {
      if (!(e instanceof SignInRefused)) throw e;
      // Recorded where the gateway logs (never the token: the messages name only the reason).
      log('sign-in refused', { route: path, status: e.status, reason: e.message });
      sendJson(res, e.status, { error: { code: e.status === 403 ? 'forbidden' : 'unauthorized', message: e.message } });
    }
    return true;
  };
}

/** What a browser or a CLI may know of the sign-in: where the provider is and whom to sign in as. */
function publicConfig(oidc: OidcConfig) {
  return {
    signIn: true,
    issuer: oidc.issuer,
    clientId: oidc.cliClientId ?? oidc.clientId,
    scopes: oidc.scopes,
    allowInsecureIssuer: oidc.allowInsecureIssuer,
  };
}

async function discover(oidc: OidcConfig, clientSecret: string | undefined): Promise<client.Configuration> {
  const auth = clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret);
  const options = oidc.allowInsecureIssuer ? { execute: [client.allowInsecureRequests] } : undefined;
  return client.discovery(new URL(oidc.issuer), oidc.clientId, clientSecret, auth, options);
}

/** The person's roles: every role one of their groups maps to, else the default roles. */
export function rolesFor(groups: readonly string[], oidc: Pick<OidcConfig, 'roles' | 'defaultRoles'>): Role[] {
  const roles = (Object.entries(oidc.roles) as [Role, string[]][])
    .filter(([, names]) => names.some((g) => groups.includes(g)))
    .map(([r]) => r);
  return roles.length > 0 ? roles : [...oidc.defaultRoles];
}

function groupsOf(claims: Claims, claim: string): string[] {
  const value = claims[claim];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}

function redirectUri(oidc: OidcConfig, req: IncomingMessage): string {
  return oidc.redirectUri ?? `http://${req.headers.host ?? '127.0.0.1'}/auth/callback`;
}

function sweep(pending: Map<string, Pending>): void {
  for (const [state, p] of pending) if (Date.now() - p.at > PENDING_MS) pending.delete(state);
}

function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new SignInRefused(400, 'the request body is too large');
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    throw new SignInRefused(400, 'the request body is not JSON');
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
