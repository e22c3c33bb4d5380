// The client side of the official MCP conformance suite, played by Agent Desk's MCP client as
// built (dist/, `npx tsc -b`): McpManager with its OAuth provider, the encrypted secret store and
// the loopback consent listener. The suite passes the scenario server's URL as the last argument,
// the scenario in MCP_CONFORMANCE_SCENARIO and its context (pre-registered client credentials) in
// MCP_CONFORMANCE_CONTEXT (with the IdP's ID token of the person, for cross-app access). The person who consents is a plain HTTP GET that follows the
// authorization server's redirect back to the loopback listener.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dist = new URL('../../../../dist/electron/', import.meta.url);
const { McpManager } = await import(new URL('capabilities/mcp/mcpManager.js', dist).href);
const { FileSecretStore } = await import(new URL('capabilities/secrets/fileSecretStore.js', dist).href);
const { McpServerConfigSchema } = await import(new URL('contract/index.js', dist).href);

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-conformance-'));
const SERVER = 'conformance';

/** Consent as a browser gives it: GET the authorization page and follow its redirects (to the loopback listener). */
async function consent(authorizationUrl) {
  const response = await fetch(authorizationUrl);
  await response.text();
}

/** Arguments for a tool from its input schema: each required property gets a plain value of its type. */
function sampleArguments(schema) {
  const args = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (!(schema.required ?? []).includes(name)) continue;
    const type = property.type;
    args[name] =
      type === 'number' || type === 'integer' ? 2 : type === 'boolean' ? true : type === 'array' ? [] : type === 'object' ? {} : 'x';
  }
  return args;
}

/** A client ID metadata document URL (SEP-991), as the suite's reference client gives one; used only where a server supports it. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

function serverConfig(secrets) {
  const oauth = { clientMetadataUrl: CLIENT_METADATA_URL };
  // The extension scenario's confidential client gets its token with no person: the client_credentials grant.
  if (scenario.startsWith('auth/client-credentials-')) oauth.grant = 'client_credentials';
  // Enterprise-managed authorization (SEP-990): the person's ID token from the suite's IdP is exchanged there for an ID-JAG.
  if (context.idp_id_token) {
    oauth.grant = 'cross_app_access';
    oauth.identityProvider = { issuer: context.idp_issuer, tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id };
  }
  if (context.client_id) {
    oauth.clientId = context.client_id;
    if (context.private_key_pem) {
      secrets.set('conformance-client-key', context.private_key_pem);
      oauth.clientKeySecret = 'conformance-client-key';
      if (context.signing_algorithm) oauth.clientKeyAlgorithm = context.signing_algorithm;
    }
    if (context.client_secret) {
      secrets.set('conformance-client-secret', context.client_secret);
      oauth.clientSecretSecret = 'conformance-client-secret';
    }
  }
  return McpServerConfigSchema.parse({ transport: 'http', url, oauth });
}

async function main() {
  const secrets = new FileSecretStore(home);
  // The signed-in person, as the suite's IdP signed them in (its ID token, held in memory only).
  const identity = { idToken: async (issuer) => (issuer === context.idp_issuer ? context.idp_id_token : undefined) };
  const manager = new McpManager({
    home,
    clientVersion: 'conformance',
    secrets,
    reconnectDelaysMs: [],
    consent: { openUrl: consent },
    identity,
  });
  try {
    const status = await manager.add(SERVER, serverConfig(secrets));
    if (status.state !== 'connected') throw new Error(`not connected (${scenario}): ${status.reason}`);
    const connection = manager.connection(SERVER);
    // A person accepting a form without filling it in: the client fills in the schema's defaults.
    const asker = { taskId: 'conformance', askUser: async () => ({ action: 'accept', content: {} }) };
    // Every tool the scenario's server lists is called (through the connection Agent Desk's mcp tools use).
    const { tools } = await (await connection.connect()).listTools();
    for (const tool of tools) {
      const result = await connection.callTool(tool.name, sampleArguments(tool.inputSchema), {
        signal: AbortSignal.timeout(20_000),
        asker,
      });
      console.log(`called ${tool.name}: ${JSON.stringify(result).slice(0, 200)}`);
    }
  } finally {
    await manager.close();
    rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`conformance client (${scenario}) failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
