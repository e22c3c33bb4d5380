import type { IncomingMessage, ServerResponse } from 'node:http';
import { oidcSignIn } from '../capabilities/transports/oidcSignIn.js';
import { scopesOfRoles } from '../contract/index.js';
import { AgentDeskError } from '../runtime/errors.js';
import type { ProductRuntime } from '../capabilities/composition/openRuntime.js';

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/**
 * The gateway's sign-in routes when `auth.oidc` is configured (none otherwise): people are
 * recorded in the store and get session tokens acting as them within their roles.
 */
export function signInRoutes(rt: Pick<ProductRuntime, 'config' | 'store' | 'tokens' | 'secrets' | 'clock'>): Route {
  const oidc = rt.config.startup.auth.oidc;
  if (!oidc) return noSignIn;
  const secretName = oidc.clientSecretName;
  const clientSecret = secretName === undefined ? undefined : rt.secrets?.get(secretName);
  if (secretName !== undefined && clientSecret === undefined) {
    throw new AgentDeskError(
      'bad_state',
      `auth.oidc.clientSecretName names "${secretName}", which is not stored: agent-desk secrets set ${secretName}`,
    );
  }
  const at = () => new Date(rt.clock.now()).toISOString();
  return oidcSignIn(
    oidc,
    {
      signedIn: (p) => rt.store.people.signedIn(p, at()),
      issueSession: async (person, expiresAt) => {
        const { secret } = await rt.tokens.issue(scopesOfRoles(person.roles), `sign-in: ${person.name}`, at(), {
          subject: person.subject,
          expiresAt: expiresAt.toISOString(),
        });
        return secret;
      },
      firstUse: (digest, expiresAt) => rt.store.people.firstUse(digest, expiresAt.toISOString(), at()),
    },
    clientSecret,
  );
}

/** Without `auth.oidc`, `/auth/config` still answers (nobody signs in), so the web UI asks without a 404. */
const noSignIn: Route = async (req, res) => {
  if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/auth/config') return false;
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ signIn: false }));
  return true;
};

/** Tries `first`, then `rest` when it did not take the request. */
export function withRoute(first: Route | undefined, rest: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>) {
  if (!first) return rest;
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (!(await first(req, res))) await rest(req, res);
  };
}
