import { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import type { McpIdentityProvider } from '../../../contract/index.js';
import { AgentDeskError } from '../../../runtime/errors.js';
import { tracedFetch } from '../../../runtime/trace/telemetry/propagation.js';

/** RFC 8693 and the Identity Assertion JWT Authorization Grant (ID-JAG, SEP-990) names. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const IDP_TIMEOUT_MS = 30_000;

/**
 * The person on whose behalf a cross-app access server is called: hands out their current ID
 * token from the identity provider (kept in memory by whoever signed them in, never written down).
 */
export interface McpPersonIdentity {
  /** The person's ID token from `issuer`; undefined when nobody is signed in there. */
  idToken(issuer: string): Promise<string | undefined>;
}

/** Which step of cross-app access was refused: the IdP's token exchange, or the MCP server's authorization server's jwt-bearer grant. */
export type CrossAppAccessStep = 'token_exchange' | 'jwt_bearer';

/** Cross-app access could not get a token for the person; says which party refused and why. */
export class McpCrossAppAccessError extends AgentDeskError {
  constructor(
    readonly server: string,
    readonly step: CrossAppAccessStep,
    message: string,
    /** The OAuth error code the refusing party answered (e.g. `invalid_grant`), when it gave one. */
    readonly oauthError?: string,
  ) {
    super('unauthorized', `MCP server ${server}: ${message}`, { server, step, ...(oauthError !== undefined && { oauthError }) });
    this.name = 'McpCrossAppAccessError';
  }
}

/** The IdP's answer to the token exchange (RFC 8693 §2.2.1). */
const IdJagResponseSchema = z.object({
  access_token: z.string().min(1),
  issued_token_type: z.literal(ID_JAG_TOKEN_TYPE),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
});

/** An OAuth error answer (RFC 6749 §5.2). */
const OAuthErrorBodySchema = z.object({ error: z.string(), error_description: z.string().optional() });

/** What one ID-JAG is asked for. */
export interface IdJagRequest {
  server: string;
  idp: McpIdentityProvider;
  /** The IdP client's secret, when it is confidential. */
  idpClientSecret: string | undefined;
  idToken: string;
  /** The MCP server's authorization server (its issuer): the ID-JAG's audience. */
  audience: string;
  /** The MCP server (its resource indicator). */
  resource: string;
  scope: string | undefined;
}

/**
 * RFC 8693 token exchange at the IdP: the person's ID token for an ID-JAG meant for the MCP
 * server's authorization server. An ID-JAG naming another audience is refused here, before it
 * could be shown to an authorization server it was not meant for.
 */
export async function requestIdJag(request: IdJagRequest): Promise<string> {
  const { server, idp } = request;
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    subject_token: request.idToken,
    subject_token_type: ID_TOKEN_TYPE,
    audience: request.audience,
    resource: request.resource,
    ...(request.scope !== undefined && { scope: request.scope }),
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (request.idpClientSecret === undefined) body.set('client_id', idp.clientId);
  else headers.authorization = basicAuth(idp.clientId, request.idpClientSecret);
  const endpoint = await tokenEndpointOf(server, idp);
  const response = await tracedFetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(IDP_TIMEOUT_MS) }).catch(
    (e: unknown) => {
      throw new McpCrossAppAccessError(
        server,
        'token_exchange',
        `the identity provider ${idp.issuer} cannot be reached: ${(e as Error).message}`,
      );
    },
  );
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const refused = OAuthErrorBodySchema.safeParse(answer);
    const why = refused.success
      ? `${refused.data.error}${refused.data.error_description ? `: ${refused.data.error_description}` : ''}`
      : `HTTP ${response.status}`;
    throw new McpCrossAppAccessError(
      server,
      'token_exchange',
      `the identity provider refused the person's ID token (${why})`,
      refused.success ? refused.data.error : undefined,
    );
  }
  const parsed = IdJagResponseSchema.safeParse(answer);
  if (!parsed.success)
    throw new McpCrossAppAccessError(
      server,
      'token_exchange',
      `the identity provider did not answer with an ID-JAG (${parsed.error.issues[0]?.message})`,
    );
  checkAudience(server, parsed.data.access_token, request.audience);
  return parsed.data.access_token;
}

/** The jwt-bearer grant's request (RFC 7523 §2.1) presenting an ID-JAG; the SDK adds client authentication and the resource. */
export function jwtBearerRequest(idJag: string, scope: string | undefined): URLSearchParams {
  return new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: idJag, ...(scope !== undefined && { scope }) });
}

function checkAudience(server: string, idJag: string, audience: string): void {
  let aud: string[];
  try {
    const claims = decodeJwt(idJag);
    aud = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  } catch {
    throw new McpCrossAppAccessError(server, 'token_exchange', 'the identity provider’s ID-JAG is not a JWT');
  }
  const same = (a: string) => a.replace(/\/+$/, '') === audience.replace(/\/+$/, '');
  if (!aud.some(same))
    throw new McpCrossAppAccessError(
      server,
      'token_exchange',
      `the identity provider issued an ID-JAG for ${aud.join(', ') || 'no audience'}, not for ${audience}; it was not sent on`,
    );
}

async function tokenEndpointOf(server: string, idp: McpIdentityProvider): Promise<string> {
  if (idp.tokenEndpoint !== undefined) return idp.tokenEndpoint;
  const metadata = await discoverAuthorizationServerMetadata(idp.issuer, { fetchFn: tracedFetch }).catch(() => undefined);
  if (!metadata?.token_endpoint)
    throw new McpCrossAppAccessError(
      server,
      'token_exchange',
      `the identity provider ${idp.issuer} publishes no token endpoint; set identityProvider.tokenEndpoint`,
    );
  return metadata.token_endpoint;
}

function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}
