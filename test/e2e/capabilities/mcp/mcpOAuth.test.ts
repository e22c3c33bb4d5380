import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { CliSandbox, explain } from '../../../support/cliSandbox.js';
import { OAuthTestAuthority, startAuthorizationServer, startResourceServer, type ProtectedMcpServer } from './oauthMcpServer.js';

let cli: CliSandbox | undefined;
const servers: ProtectedMcpServer[] = [];
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const needsLogin = (name: string) => `MCP server ${name} needs authorization: run agent-desk mcp login ${name}`;

/** `agent-desk mcp login <name>`, the person being a plain GET of the printed URL that follows the authorization server's redirect. */
async function login(sandbox: CliSandbox, name: string): Promise<{ redirectUri: string; stdout: string; stderr: string }> {
  const child = sandbox.spawn(['mcp', 'login', name, '--json']);
  const [, consentUrl] = await child.waitForOutput(/open this URL in a browser:\s+(\S+)/);
  const redirectUri = new URL(consentUrl!).searchParams.get('redirect_uri')!;
  const page = await fetch(consentUrl!);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Agent Desk is authorized');
  const done = await child.finished(60_000);
  expect(done.code, child.describe()).toBe(0);
  return { redirectUri, stdout: done.stdout, stderr: done.stderr };
}

function whoamiPlaybook(sandbox: CliSandbox, server: string): string {
  const file = path.join(sandbox.home, `${server}.yaml`);
  writeFileSync(
    file,
    `name: ask ${server}\nsteps:\n  - tool: mcp__${server}__whoami\n    args: {}\n    expect: [{ path: $.text, contains: "answered by" }]\n`,
  );
  return file;
}

/** Every file under a folder whose bytes contain one of the values in clear. */
function filesHolding(dir: string, values: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (!statSync(file).isFile()) continue;
    const bytes = readFileSync(file).toString('latin1');
    if (values.some((v) => bytes.includes(v))) found.push(entry);
  }
  return found;
}

describe('MCP OAuth against a real OAuth-protected MCP server (the SDK auth router)', () => {
  it('headless add says to log in; mcp login consents via the loopback callback; tokens live only in the secret store; a task calls the tool; an expired token is refreshed', async () => {
    const authority = new OAuthTestAuthority();
    const { server: alpha } = await startAuthorizationServer(authority);
    servers.push(alpha);
    cli = new CliSandbox();

    const added = await cli.run(['mcp', 'servers', 'add', 'alpha', '--url', alpha.url, '--json']);
    expect(added.code, explain(added)).toBe(0);
    expect(added.json()).toMatchObject({ name: 'alpha', state: 'failed', reason: needsLogin('alpha') });
    expect(authority.clients.size).toBe(0); // headless: no registration without a person to consent

    const { redirectUri, stdout, stderr } = await login(cli, 'alpha');
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(JSON.parse(stdout)).toMatchObject({
      name: 'alpha',
      state: 'connected',
      tools: [expect.objectContaining({ name: 'mcp__alpha__whoami' })],
    });
    // The authorization request: PKCE (the router refuses a request without it), our loopback, and the resource indicator of this server.
    expect(authority.authorizations).toEqual([
      expect.objectContaining({ redirectUri, resource: new URL(alpha.url), codeChallenge: expect.any(String) }),
    ]);
    expect([...authority.clients.values()].map((c) => c.redirect_uris)).toEqual([[redirectUri]]);

    const store = new FileSecretStore(cli.home);
    expect(store.list()).toEqual(
      expect.arrayContaining(['mcp.alpha.oauth', 'mcp.alpha.oauth.access_token', 'mcp.alpha.oauth.refresh_token']),
    );
    const firstToken = store.get('mcp.alpha.oauth.access_token')!;
    expect(authority.tokens.has(firstToken)).toBe(true);

    const playbook = whoamiPlaybook(cli, 'alpha');
    const run = await cli.run(['run', playbook, '--json']);
    expect(run.code, explain(run)).toBe(0);
    expect(alpha.authorizationHeaders.at(-1)).toBe(`Bearer ${firstToken}`);

    // The server stops accepting the token (as at its expiry): the next task refreshes it and goes on.
    authority.expireAccessTokens();
    const again = await cli.run(['run', playbook, '--json']);
    expect(again.code, explain(again)).toBe(0);
    expect(authority.grants).toEqual(['authorization_code', 'refresh_token']);
    const secondToken = new FileSecretStore(cli.home).get('mcp.alpha.oauth.access_token')!;
    expect(secondToken).not.toBe(firstToken);
    expect(alpha.authorizationHeaders.at(-1)).toBe(`Bearer ${secondToken}`);

    // No token in clear anywhere under the data folder (database and WAL, trace, mcp.json, logs) nor in any output.
    const issued = authority.issued;
    expect(issued.length).toBe(4);
    expect(filesHolding(cli.home, issued)).toEqual([]);
    const outputs = [added.stdout, added.stderr, stdout, stderr, run.stdout, run.stderr, again.stdout, again.stderr].join('\n');
    expect(issued.filter((token) => outputs.includes(token))).toEqual([]);
    expect(readFileSync(path.join(cli.home, 'mcp.json'), 'utf8')).not.toMatch(/access_token|refresh_token|client_secret/);
  }, 180_000);

  it('a task on a server that needs login fails saying which command fixes it', async () => {
    const authority = new OAuthTestAuthority();
    const { server: alpha } = await startAuthorizationServer(authority);
    servers.push(alpha);
    cli = new CliSandbox();
    await cli.run(['mcp', 'servers', 'add', 'alpha', '--url', alpha.url]);
    await login(cli, 'alpha');
    const logout = await cli.run(['mcp', 'logout', 'alpha', '--json']);
    expect(logout.json()).toEqual({ name: 'alpha', forgotten: true });
    expect(new FileSecretStore(cli.home).list().filter((n) => n.startsWith('mcp.alpha.'))).toEqual([]);

    const run = await cli.run(['run', whoamiPlaybook(cli, 'alpha'), '--json']);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(needsLogin('alpha'));
  }, 120_000);

  it("attack: one server's token never reaches another server, not even when the entry is pointed at it", async () => {
    const authority = new OAuthTestAuthority();
    const { issuer, server: alpha } = await startAuthorizationServer(authority);
    const beta = await startResourceServer(authority, issuer, 'beta');
    servers.push(alpha, beta);
    cli = new CliSandbox();
    await cli.run(['mcp', 'servers', 'add', 'alpha', '--url', alpha.url]);
    await login(cli, 'alpha');
    const alphaTokens = authority.issued;

    // Beta trusts the same authorization server, but alpha's login is alpha's alone.
    const addedBeta = await cli.run(['mcp', 'servers', 'add', 'beta', '--url', beta.url, '--json']);
    expect(addedBeta.json()).toMatchObject({ state: 'failed', reason: needsLogin('beta') });
    // alpha's entry edited to point at beta: the tokens were obtained for alpha's URL, so they are dropped, not sent.
    const moved = await cli.run(['mcp', 'servers', 'add', 'alpha', '--url', beta.url, '--replace', '--json']);
    expect(moved.json()).toMatchObject({ state: 'failed', reason: needsLogin('alpha') });
    expect(beta.authorizationHeaders.length).toBeGreaterThan(0);
    expect(beta.authorizationHeaders.filter((h) => alphaTokens.some((t) => h.includes(t)))).toEqual([]);
    expect(new FileSecretStore(cli.home).list().filter((n) => n.startsWith('mcp.alpha.oauth.'))).toEqual([]);

    // And the audience binding holds on the server side too: alpha's token presented to beta is refused.
    const presented = await fetch(beta.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${alphaTokens[0]}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(presented.status).toBe(401);
  }, 120_000);

  it("attack: a redirect URI off the loopback is refused, and a callback without the request's state does not complete a login", async () => {
    const authority = new OAuthTestAuthority();
    const { server: alpha } = await startAuthorizationServer(authority);
    servers.push(alpha);
    cli = new CliSandbox();
    for (const uri of ['https://evil.example/callback', 'http://127.0.0.1.evil.example:8080/callback', 'http://127.0.0.1/callback']) {
      const refused = await cli.run(['mcp', 'servers', 'add', 'alpha', '--url', alpha.url, '--redirect-uri', uri, '--json']);
      expect(refused.code, uri).toBe(2);
      expect(refused.json()).toMatchObject({
        error: { code: 'invalid_params', message: expect.stringContaining('redirect URI must be http://127.0.0.1') },
      });
    }

    await cli.run(['mcp', 'servers', 'add', 'alpha', '--url', alpha.url]);
    const child = cli.spawn(['mcp', 'login', 'alpha']);
    const [, consentUrl] = await child.waitForOutput(/open this URL in a browser:\s+(\S+)/);
    const redirectUri = new URL(consentUrl!).searchParams.get('redirect_uri')!;
    // A link crafted by someone else (their code, no matching state) is turned away; the login keeps waiting for ours.
    const forged = await fetch(`${redirectUri}?code=attacker-code&state=forged`);
    expect(forged.status).toBe(400);
    const stateless = await fetch(`${redirectUri}?code=attacker-code`);
    expect(stateless.status).toBe(400);
    expect(child.running).toBe(true);
    expect((await fetch(consentUrl!)).status).toBe(200);
    expect((await child.finished(60_000)).code, child.describe()).toBe(0);
    expect(authority.grants).toEqual(['authorization_code']);
  }, 120_000);
});
