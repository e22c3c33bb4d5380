import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';

/** An access token as the authorization server issued it. */
interface Issued {
  clientId: string;
  /** The resource indicator it was asked for: the only server that accepts it (its audience). */
  resource: string;
  expired: boolean;
}

/**
 * The SDK's own authorization server (mcpAuthRouter: metadata, dynamic registration, authorize
 * with redirect_uri and PKCE checks, token, refresh) with consent given at once, serving any
 * number of MCP resource servers. Every token is bound to the resource it was requested for, and
 * each resource server accepts only its own (requireBearerAuth with expectedResource). It records
 * what the client did: grants by type, the Authorization headers each resource server received.
 */
export class OAuthTestAuthority implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly tokens = new Map<string, Issued>();
  readonly refreshTokens = new Map<string, { clientId: string; resource: string }>();
  readonly grants: string[] = [];
  readonly authorizations: AuthorizationParams[] = [];
  /** Every access and refresh token issued, in order. */
  readonly issued: string[] = [];
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();

  /** `accessTokenLifetimeS`: the `expires_in` every token response states. */
  constructor(private readonly accessTokenLifetimeS = 3600) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        const full = {
          ...client,
          client_id: `client-${randomBytes(6).toString('hex')}`,
          client_id_issued_at: Math.floor(Date.now() / 1000),
        };
        this.clients.set(full.client_id, full);
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.authorizations.push(params);
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry) throw new InvalidGrantError('unknown authorization code');
    return entry.params.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    this.codes.delete(code);
    if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    if (redirectUri !== entry.params.redirectUri) throw new InvalidGrantError('redirect_uri differs from the authorization request');
    if (!resource) throw new InvalidGrantError('a resource indicator is required');
    this.grants.push('authorization_code');
    return this.issue(client.client_id, resource.href);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const entry = this.refreshTokens.get(refreshToken);
    if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    if (resource && resource.href !== entry.resource) throw new InvalidGrantError('refresh for another resource');
    this.refreshTokens.delete(refreshToken);
    this.grants.push('refresh_token');
    return this.issue(client.client_id, entry.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const issued = this.tokens.get(token);
    if (!issued || issued.expired) throw new InvalidTokenError(issued ? 'the access token has expired' : 'unknown access token');
    return {
      token,
      clientId: issued.clientId,
      scopes: [],
      resource: new URL(issued.resource),
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    };
  }

  /** Every access token issued so far stops being accepted (as when they reach their expiry). */
  expireAccessTokens(): void {
    for (const issued of this.tokens.values()) issued.expired = true;
  }

  private issue(clientId: string, resource: string): OAuthTokens {
    const access = `at-${randomBytes(16).toString('hex')}`;
    const refresh = `rt-${randomBytes(16).toString('hex')}`;
    this.issued.push(access, refresh);
    this.tokens.set(access, { clientId, resource, expired: false });
    this.refreshTokens.set(refresh, { clientId, resource });
    return { access_token: access, token_type: 'Bearer', expires_in: this.accessTokenLifetimeS, refresh_token: refresh };
  }
}

/** A running OAuth-protected MCP server. */
export interface ProtectedMcpServer {
  url: string;
  /** The Authorization header of every request to its MCP endpoint ('' when none was sent). */
  authorizationHeaders: string[];
  close(): Promise<void>;
}

/** Starts the authorization server with its first resource server (`/mcp` on the same origin). */
export async function startAuthorizationServer(authority: OAuthTestAuthority): Promise<{ issuer: string; server: ProtectedMcpServer }> {
  const app = express();
  const { http, origin } = await listen(app);
  const mcpUrl = new URL('/mcp', origin);
  app.use(mcpAuthRouter({ provider: authority, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl }));
  const server = mountMcp(app, authority, mcpUrl, 'alpha', http);
  return { issuer: origin, server };
}

/** Another resource server trusting the same authorization server (its own origin, its own audience). */
export async function startResourceServer(authority: OAuthTestAuthority, issuer: string, label: string): Promise<ProtectedMcpServer> {
  const app = express();
  const { http, origin } = await listen(app);
  const mcpUrl = new URL('/mcp', origin);
  const oauthMetadata = createOAuthMetadata({ provider: authority, issuerUrl: new URL(issuer) });
  app.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl }));
  return mountMcp(app, authority, mcpUrl, label, http);
}

function mountMcp(app: express.Express, authority: OAuthTestAuthority, mcpUrl: URL, label: string, http: Server): ProtectedMcpServer {
  const authorizationHeaders: string[] = [];
  app.use('/mcp', (req, _res, next) => {
    authorizationHeaders.push(req.headers.authorization ?? '');
    next();
  });
  const bearer = requireBearerAuth({
    verifier: authority,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    expectedResource: mcpUrl,
  });
  app.post('/mcp', express.json(), bearer, async (req: Request, res: Response) => {
    const server = new McpServer({ name: `oauth-${label}`, version: '1.0.0' });
    server.registerTool(
      'whoami',
      { description: 'Says which server answered', inputSchema: { note: z.string().optional() }, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: `answered by ${label}` }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.all('/mcp', bearer, (_req, res) => void res.status(405).json({ error: 'stateless server: POST only' }));
  return {
    url: mcpUrl.href,
    authorizationHeaders,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

async function listen(app: express.Express): Promise<{ http: Server; origin: string }> {
  const http = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  http.closeIdleConnections();
  return { http, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}
