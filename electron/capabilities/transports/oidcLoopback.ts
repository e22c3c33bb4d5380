import { createServer } from 'node:http';
import * as client from 'openid-client';
import { AgentDeskError } from '../../runtime/errors.js';

/** What the gateway says about its sign-in (`GET /auth/config`). */
export interface GatewaySignIn {
  issuer: string;
  clientId: string;
  scopes: string[];
  allowInsecureIssuer: boolean;
}

/** How long a person has to finish signing in at the provider. */
const SIGN_IN_WAIT_MS = 5 * 60_000;

/**
 * Signs a person in from a terminal the way native apps do (RFC 8252): a one-use HTTP listener
 * on 127.0.0.1 receives the provider's redirect; authorization code + PKCE + state + nonce are
 * checked by openid-client. `open` is handed the provider's address (printed, and opened in a
 * browser where one is at hand). Resolves with the provider's ID token.
 */
export async function loopbackSignIn(signIn: GatewaySignIn, open: (url: string) => void): Promise<string> {
  const options = signIn.allowInsecureIssuer ? { execute: [client.allowInsecureRequests] } : undefined;
  const config = await client.discovery(new URL(signIn.issuer), signIn.clientId, undefined, client.None(), options).catch((e: unknown) => {
    throw new AgentDeskError('unavailable', `the identity provider ${signIn.issuer} cannot be reached: ${(e as Error).message}`);
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(server.address() as { port: number }).port}/callback`;
  try {
    const returned = new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new AgentDeskError('unavailable', 'nobody finished signing in within 5 minutes')),
        SIGN_IN_WAIT_MS,
      );
      server.on('request', (req, res) => {
        const url = new URL(req.url ?? '/', redirectUri);
        if (url.pathname !== '/callback') return void res.writeHead(404).end();
        res
          .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
          .end('Signed in. You can close this tab and return to the terminal.');
        clearTimeout(timer);
        resolve(url);
      });
    });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: signIn.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    open(url.href);
    const tokens = await client
      .authorizationCodeGrant(config, await returned, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      })
      .catch((e: unknown) => {
        throw new AgentDeskError('unauthorized', `the sign-in could not be verified: ${(e as Error).message}`);
      });
    if (!tokens.id_token) throw new AgentDeskError('unauthorized', 'the identity provider sent no ID token');
    return tokens.id_token;
  } finally {
    server.close();
  }
}
