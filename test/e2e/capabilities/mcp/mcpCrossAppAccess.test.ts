import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../../electron/capabilities/mcp/mcpManager.js';
import { McpCrossAppAccessError, type McpPersonIdentity } from '../../../../electron/capabilities/mcp/oauth/crossAppAccess.js';
import { McpAuthRequiredError } from '../../../../electron/capabilities/mcp/oauth/mcpAuthRequired.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { McpServerConfigSchema } from '../../../../electron/contract/index.js';
import {
  IDP_CLIENT_ID,
  MCP_CLIENT_ID,
  MCP_CLIENT_SECRET,
  startCrossAppIdp,
  startCrossAppMcp,
  type CrossAppIdp,
  type CrossAppMcp,
} from './crossAppAuthorities.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  idp: CrossAppIdp;
  mcp: CrossAppMcp;
  home: string;
  manager: (identity?: McpPersonIdentity) => McpManager;
}

/** A real IdP, the MCP server's real authorization server and the MCP server, and Agent Desk's MCP client configured for cross-app access. */
async function setUp(): Promise<Setup> {
  const idp = await startCrossAppIdp();
  cleanups.push(() => idp.close());
  const mcp = await startCrossAppMcp(idp);
  cleanups.push(() => mcp.close());
  const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-xaa-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  new FileSecretStore(home).set('docs-client-secret', MCP_CLIENT_SECRET);
  const manager = (identity?: McpPersonIdentity) => {
    const m = new McpManager({
      home,
      clientVersion: 'test',
      secrets: new FileSecretStore(home),
      reconnectDelaysMs: [],
      ...(identity && { identity }),
    });
    cleanups.push(() => m.close());
    return m;
  };
  return { idp, mcp, home, manager };
}

function config(s: Setup) {
  return McpServerConfigSchema.parse({
    transport: 'http',
    url: s.mcp.url,
    oauth: {
      grant: 'cross_app_access',
      clientId: MCP_CLIENT_ID,
      clientSecretSecret: 'docs-client-secret',
      identityProvider: { issuer: s.idp.issuer, clientId: IDP_CLIENT_ID },
    },
  });
}

/** The person signed in at the IdP: their ID token, held in memory. */
const signedIn = (idp: CrossAppIdp, idToken: string): McpPersonIdentity => ({
  idToken: async (issuer) => (issuer === idp.issuer ? idToken : undefined),
});

async function refusal(run: Promise<unknown>): Promise<McpCrossAppAccessError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpCrossAppAccessError);
  return error as McpCrossAppAccessError;
}

/** Every file under a folder whose bytes contain the value in clear. */
function filesHolding(dir: string, value: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((entry) => {
    const file = path.join(dir, entry);
    return statSync(file).isFile() && readFileSync(file).toString('latin1').includes(value);
  });
}

describe('enterprise identity for MCP: cross-app access (ID-JAG) with a real oidc-provider IdP and authorization server', () => {
  it("the person's ID token becomes an ID-JAG at the IdP and an access token at the MCP server's authorization server; the tool is called for that person; no token of the IdP is written down", async () => {
    const s = await setUp();
    const idToken = await s.idp.idToken('alice');
    const manager = s.manager(signedIn(s.idp, idToken));

    const status = await manager.add('docs', config(s));
    expect(status.state, status.reason).toBe('connected');
    const result = await manager.connection('docs')!.callTool('whoami', {}, { signal: AbortSignal.timeout(10_000) });
    expect(JSON.stringify(result)).toContain('called for alice');
    expect({ exchanges: s.idp.exchanges, grants: s.mcp.grants }).toEqual({ exchanges: 1, grants: 1 });
    expect(s.idp.seen).toEqual([idToken, expect.any(String)]);
    expect(s.idp.seen.flatMap((jwt) => filesHolding(s.home, jwt.split('.')[2]!))).toEqual([]);
  });

  it('an ID-JAG the IdP issued for another audience is refused by Agent Desk before any authorization server sees it (step token_exchange)', async () => {
    const s = await setUp();
    s.idp.idJag.audience = 'https://other-as.example.com';
    const manager = s.manager(signedIn(s.idp, await s.idp.idToken('alice')));
    await manager.add('docs', config(s));

    const error = await refusal(manager.test('docs'));
    expect(error.step).toBe('token_exchange');
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe(
      `MCP server docs: the identity provider issued an ID-JAG for https://other-as.example.com, not for ${s.mcp.issuer}; it was not sent on`,
    );
    expect(s.mcp.grants).toBe(0);
  });

  it("an expired ID-JAG is refused by the MCP server's authorization server: a typed error naming the jwt-bearer step and invalid_grant", async () => {
    const s = await setUp();
    s.idp.idJag.lifetimeS = -30;
    const manager = s.manager(signedIn(s.idp, await s.idp.idToken('alice')));
    await manager.add('docs', config(s));

    const error = await refusal(manager.test('docs'));
    expect(error.step).toBe('jwt_bearer');
    expect(error.oauthError).toBe('invalid_grant');
    expect(error.message).toMatch(
      /^MCP server docs: its authorization server refused the person's ID-JAG \(invalid_grant: the ID-JAG was refused: .*"exp"/,
    );
    expect(s.mcp.grants).toBeGreaterThan(0);
    expect(manager.list()[0]).toMatchObject({ state: 'failed', reason: error.message });
  });

  it('an expired ID token is refused by the IdP (step token_exchange, invalid_grant); with nobody signed in the server says to log in', async () => {
    const s = await setUp();
    const expired = await s.idp.idToken('alice', { exp: Math.floor(Date.now() / 1000) - 60 });
    const manager = s.manager(signedIn(s.idp, expired));
    await manager.add('docs', config(s));
    const error = await refusal(manager.test('docs'));
    expect(error.step).toBe('token_exchange');
    expect(error.oauthError).toBe('invalid_grant');
    expect(error.message).toMatch(
      /the identity provider refused the person's ID token \(invalid_grant: the subject token was refused: .*"exp"/,
    );
    expect(s.idp.exchanges).toBe(0);

    const nobody = s.manager();
    await expect(nobody.test('docs')).rejects.toBeInstanceOf(McpAuthRequiredError);
  });
});
