import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** A person the test provider knows: their login is their id, any password signs them in. */
export interface TestAccount {
  id: string;
  name: string;
  email: string;
  groups: string[];
}

/** A real OpenID provider (the `oidc-provider` package) on loopback, for sign-in tests. */
export interface TestProvider {
  issuer: string;
  /** The client this gateway is registered as (public: PKCE, no secret). */
  clientId: string;
  /** Signs a token with the provider's own key (to build expired or foreign-audience ID tokens the provider really signed). */
  sign(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Starts the provider with `accounts`, registering the gateway's client with `redirectUris`. */
export async function startTestProvider(accounts: readonly TestAccount[], redirectUris: readonly string[]): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const clientId = 'agent-desk';
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const configuration: Configuration = {
    clients: [
      { client_id: clientId, token_endpoint_auth_method: 'none', redirect_uris: [...redirectUris], grant_types: ['authorization_code'] },
      // `agent-desk login`: a native app with a loopback redirect (any port, RFC 8252).
      {
        client_id: 'agent-desk-cli',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code'],
      },
      { client_id: 'other-app', client_secret: 'other-secret-0123456789abcdef', redirect_uris: ['http://127.0.0.1/other'] },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['name'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    // Every claim in the ID token: the gateway reads the groups from it, not from userinfo.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => {
      const account = byId.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, name: account.name, email: account.email, groups: account.groups }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
