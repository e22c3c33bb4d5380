import { loadMcpConfig } from '../../capabilities/mcp/mcpConfigFile.js';
import type { McpPersonIdentity } from '../../capabilities/mcp/oauth/crossAppAccess.js';
import { loopbackSignIn } from '../../capabilities/transports/oidcLoopback.js';

/**
 * For `mcp login` of a cross-app access server: signs the person in at the server's identity
 * provider (loopback redirect + PKCE, as `agent-desk login` does) and holds their ID token in
 * memory for this one login; nothing of the IdP is written down, only the MCP server's tokens.
 * Undefined for a server of another grant.
 */
export async function personSignInFor(home: string, name: string, open: (url: string) => void): Promise<McpPersonIdentity | undefined> {
  const config = loadMcpConfig(home).servers[name];
  const idp = config?.transport === 'http' && config.oauth?.grant === 'cross_app_access' ? config.oauth.identityProvider : undefined;
  if (!idp) return undefined;
  const idToken = await loopbackSignIn(
    // http is accepted only on a loopback issuer (McpIdentityProviderSchema).
    { issuer: idp.issuer, clientId: idp.clientId, scopes: idp.scopes, allowInsecureIssuer: idp.issuer.startsWith('http:') },
    open,
  );
  return { idToken: async (issuer) => (issuer === idp.issuer ? idToken : undefined) };
}
