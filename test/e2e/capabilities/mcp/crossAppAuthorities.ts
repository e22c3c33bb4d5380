import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/** Agent Desk's client at the IdP (the person's ID tokens are issued to it) and at the MCP authorization server. */
export const IDP_CLIENT_ID = 'agent-desk';
export const MCP_CLIENT_ID = 'agent-desk-mcp';
export const MCP_CLIENT_SECRET = 'mcp-client-secret-0123456789abcdef';

/** The enterprise IdP: a real `oidc-provider` with an RFC 8693 token-exchange grant that issues ID-JAGs. */
export interface CrossAppIdp {
  issuer: string;
  /** An ID token for `sub` the IdP really signed (to Agent Desk's client unless `claims` say otherwise). */
  idToken(sub: string, claims?: Record<string, unknown>): Promise<string>;
  /** Misbehaviours of the next ID-JAGs: another audience, a lifetime (negative: already expired). */
  idJag: { audience?: string; lifetimeS: number };
  /** Token exchanges it answered with an ID-JAG. */
  exchanges: number;
  /** Every ID token presented to it and every ID-JAG it issued (to check none is written down). */
  seen: string[];
  close(): Promise<void>;
}

/** The MCP server's authorization server (a second `oidc-provider`, jwt-bearer grant) and the MCP server it protects. */
export interface CrossAppMcp {
  issuer: string;
  url: string;
  /** jwt-bearer grants presented to the authorization server, accepted or not. */
  grants: number;
  close(): Promise<void>;
}

export async function startCrossAppIdp(): Promise<CrossAppIdp> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'idp-key', alg: 'ES256', use: 'sig' };
  const { server, origin: issuer } = await listen();
  const idp: CrossAppIdp = {
    issuer,
    idJag: { lifetimeS: 300 },
    exchanges: 0,
    seen: [],
    idToken: (sub, claims = {}) =>
      new SignJWT({ email: `${sub}@example.com`, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'idp-key' })
        .setIssuer(issuer)
        .setSubject(sub)
        .setAudience((claims.aud as string | undefined) ?? IDP_CLIENT_ID)
        .setIssuedAt()
        .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : '1h')
        .sign(privateKey),
    close: () => close(server),
  };
  const configuration: Configuration = {
    clients: [
      // A native app (`agent-desk mcp login` signs the person in with a loopback redirect, any port) that also asks for ID-JAGs.
      {
        client_id: IDP_CLIENT_ID,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', TOKEN_EXCHANGE],
        redirect_uris: ['http://127.0.0.1/callback'],
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email'] },
    conformIdTokenClaims: false,
    // Its login form takes any name and password: the name is the person.
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@example.com` }) }),
  };
  const provider = new Provider(issuer, configuration);
  const exchange = async (ctx: KoaContextWithOIDC) => {
    const params = ctx.oidc.params as Record<string, string | undefined>;
    if (params.requested_token_type !== ID_JAG || params.subject_token_type !== ID_TOKEN)
      throw new errors.InvalidRequest('only an ID token for an ID-JAG is exchanged here');
    const { payload } = await jwtVerify(params.subject_token ?? '', publicKey, { issuer, audience: ctx.oidc.client!.clientId }).catch(
      (e: unknown) => {
        throw new errors.CustomOIDCProviderError('invalid_grant', `the subject token was refused: ${(e as Error).message}`);
      },
    );
    idp.exchanges++;
    const now = Math.floor(Date.now() / 1000);
    const idJag = await new SignJWT({ client_id: MCP_CLIENT_ID, resource: params.resource, scope: params.scope })
      .setProtectedHeader({ alg: 'ES256', kid: 'idp-key', typ: 'oauth-id-jag+jwt' })
      .setIssuer(issuer)
      .setSubject(payload.sub!)
      .setAudience(idp.idJag.audience ?? params.audience ?? '')
      .setIssuedAt(now - 60)
      .setExpirationTime(now + idp.idJag.lifetimeS)
      .setJti(randomBytes(8).toString('hex'))
      .sign(privateKey);
    idp.seen.push(params.subject_token!, idJag);
    ctx.body = { access_token: idJag, issued_token_type: ID_JAG, token_type: 'N_A', expires_in: idp.idJag.lifetimeS };
  };
  provider.registerGrantType(TOKEN_EXCHANGE, exchange, [
    'subject_token',
    'subject_token_type',
    'requested_token_type',
    'audience',
    'resource',
    'scope',
  ]);
  server.on('request', provider.callback());
  return idp;
}

/** Access tokens the MCP authorization server issued: for whom and which server. */
interface Issued {
  sub: string;
  resource: string;
}

export async function startCrossAppMcp(idp: CrossAppIdp): Promise<CrossAppMcp> {
  const { server: asServer, origin: issuer } = await listen();
  const issued = new Map<string, Issued>();
  const idpKeys = createRemoteJWKSet(new URL('/jwks', idp.issuer));
  const app = express();
  const { http, origin } = await listenExpress(app);
  const mcpUrl = `${origin}/mcp`;
  const mcp: CrossAppMcp = { issuer, url: mcpUrl, grants: 0, close: async () => void (await Promise.all([close(asServer), close(http)])) };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: MCP_CLIENT_ID,
        client_secret: MCP_CLIENT_SECRET,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: [JWT_BEARER],
        response_types: [],
        redirect_uris: [],
      },
    ],
  });
  // The ID-JAG checks of SEP-990 §5: the IdP's signature and typ, this server as audience, its client, its resource, not expired.
  provider.registerGrantType(
    JWT_BEARER,
    async (ctx: KoaContextWithOIDC) => {
      mcp.grants++;
      const params = ctx.oidc.params as Record<string, string | undefined>;
      const refuse = (why: string) => new errors.CustomOIDCProviderError('invalid_grant', why);
      const { payload } = await jwtVerify(params.assertion ?? '', idpKeys, {
        issuer: idp.issuer,
        audience: issuer,
        typ: 'oauth-id-jag+jwt',
      }).catch((e: unknown) => {
        throw refuse(`the ID-JAG was refused: ${(e as Error).message}`);
      });
      if (payload.client_id !== ctx.oidc.client!.clientId) throw refuse('the ID-JAG was issued to another client');
      if (payload.resource !== mcpUrl || (params.resource !== undefined && params.resource !== mcpUrl))
        throw refuse('the ID-JAG is for another resource');
      const token = `at-${randomBytes(16).toString('hex')}`;
      issued.set(token, { sub: payload.sub!, resource: mcpUrl });
      ctx.body = { access_token: token, token_type: 'Bearer', expires_in: 300 };
    },
    ['assertion', 'scope', 'resource'],
  );
  asServer.on('request', provider.callback());

  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => void res.json({ resource: mcpUrl, authorization_servers: [issuer] }));
  const bearer = requireBearerAuth({
    verifier: {
      verifyAccessToken: async (token) => {
        const entry = issued.get(token);
        if (!entry) throw new InvalidTokenError('unknown access token');
        return {
          token,
          clientId: MCP_CLIENT_ID,
          scopes: [],
          resource: new URL(entry.resource),
          expiresAt: Math.floor(Date.now() / 1000) + 300,
          extra: { sub: entry.sub },
        };
      },
    },
    resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource/mcp`,
  });
  app.post('/mcp', express.json(), bearer, async (req, res) => {
    const server = new McpServer({ name: 'cross-app', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says whom the call is for', annotations: { readOnlyHint: true } }, async (extra) => ({
      content: [{ type: 'text', text: `called for ${String(extra.authInfo?.extra?.sub)}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.all('/mcp', bearer, (_req, res) => void res.status(405).json({ error: 'stateless server: POST only' }));
  return mcp;
}

async function listen(): Promise<{ server: Server; origin: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function listenExpress(app: express.Express): Promise<{ http: Server; origin: string }> {
  const http = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { http, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
