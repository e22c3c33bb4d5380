import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saveMcpConfig } from '../../../../electron/capabilities/mcp/mcpConfigFile.js';
import { McpManager } from '../../../../electron/capabilities/mcp/mcpManager.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { McpServerConfigSchema } from '../../../../electron/contract/index.js';
import { OAuthTestAuthority, startAuthorizationServer, type ProtectedMcpServer } from './oauthMcpServer.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('MCP OAuth with a consent port (the desktop: a browser opens) and a pre-registered client', () => {
  it('consents on first use through the configured redirect URI, sends the client secret from the secret store, and refreshes an expired token before using it', async () => {
    // Tokens said to live 1 s: already inside the 30 s margin when the next connection starts.
    const authority = new OAuthTestAuthority(1);
    const { server: alpha } = await startAuthorizationServer(authority);
    cleanups.push(() => alpha.close());
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    authority.clients.set('pre-registered-1', {
      client_id: 'pre-registered-1',
      client_secret: 'pre-registered-secret-value',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-oauth-consent-'));
    const secrets = new FileSecretStore(home);
    secrets.set('alpha-client-secret', 'pre-registered-secret-value');
    const config = McpServerConfigSchema.parse({
      transport: 'http',
      url: alpha.url,
      oauth: { clientId: 'pre-registered-1', clientSecretSecret: 'alpha-client-secret', redirectUri },
    });
    saveMcpConfig(home, { servers: { alpha: config } });

    // The browser: it is shown the page and follows the authorization server's redirect back.
    const opened: URL[] = [];
    const browser = {
      openUrl: async (url: URL) => {
        opened.push(url);
        void fetch(url).then((r) => r.text());
      },
    };
    const desktop = new McpManager({ home, clientVersion: 'test', secrets, consent: browser, reconnectDelaysMs: [] });
    cleanups.push(() => desktop.close());
    expect(await desktop.test('alpha')).toMatchObject({
      state: 'connected',
      tools: [expect.objectContaining({ name: 'mcp__alpha__whoami' })],
    });
    expect(opened).toHaveLength(1);
    expect(opened[0]!.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(opened[0]!.searchParams.get('client_id')).toBe('pre-registered-1');
    expect(authority.clients.size).toBe(1); // no dynamic registration for a pre-registered client
    const first = secrets.get('mcp.alpha.oauth.access_token')!;
    await desktop.close();

    // A headless runtime on the same data: the stored token is past its expiry, so it is refreshed first, with no page.
    const seenBefore = alpha.authorizationHeaders.length;
    const headless = new McpManager({ home, clientVersion: 'test', secrets, reconnectDelaysMs: [] });
    cleanups.push(() => headless.close());
    expect(await headless.test('alpha')).toMatchObject({ state: 'connected' });
    const called = await headless.connection('alpha')!.callTool('whoami', {}, { signal: AbortSignal.timeout(30_000) });
    expect(called.content).toEqual([{ type: 'text', text: 'answered by alpha' }]);
    expect(authority.grants).toEqual(['authorization_code', 'refresh_token']);
    const second = secrets.get('mcp.alpha.oauth.access_token')!;
    expect(second).not.toBe(first);
    expect(alpha.authorizationHeaders.slice(seenBefore).every((h) => h === `Bearer ${second}`)).toBe(true);
    expect(opened).toHaveLength(1);
    expect(readFileSync(path.join(home, 'mcp.json'), 'utf8')).not.toContain('pre-registered-secret-value');
  }, 60_000);

  it('start-up and reconnects never open a page; the first call a task makes does, and goes through once consent is given', async () => {
    const authority = new OAuthTestAuthority();
    const { server: alpha } = await startAuthorizationServer(authority);
    cleanups.push(() => alpha.close());
    const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-oauth-foreground-'));
    saveMcpConfig(home, { servers: { alpha: McpServerConfigSchema.parse({ transport: 'http', url: alpha.url }) } });
    const opened: URL[] = [];
    const browser = {
      openUrl: async (url: URL) => {
        opened.push(url);
        void fetch(url).then((r) => r.text());
      },
    };
    const secrets = new FileSecretStore(home);
    const desktop = new McpManager({ home, clientVersion: 'test', secrets, consent: browser, reconnectDelaysMs: [] });
    cleanups.push(() => desktop.close());

    const [started] = await desktop.connectAll();
    expect(started).toMatchObject({
      name: 'alpha',
      state: 'failed',
      reason: 'MCP server alpha needs authorization: run agent-desk mcp login alpha',
    });
    expect(opened).toEqual([]);
    expect(authority.clients.size).toBe(0);
    const connection = desktop.connection('alpha')!;
    expect(connection.availability()).toEqual({ available: true }); // offered: calling it is what asks for consent

    const called = await connection.callTool('whoami', {}, { signal: AbortSignal.timeout(30_000) });
    expect(called.content).toEqual([{ type: 'text', text: 'answered by alpha' }]);
    expect(opened).toHaveLength(1);
    expect(secrets.get('mcp.alpha.oauth.access_token')).toBe(alpha.authorizationHeaders.at(-1)!.replace('Bearer ', ''));
  }, 60_000);

  it('a headless runtime waiting for a login picks up the tokens another process stored, at its next reconnect', async () => {
    const authority = new OAuthTestAuthority();
    const { server: alpha } = await startAuthorizationServer(authority);
    cleanups.push(() => alpha.close());
    const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-oauth-pickup-'));
    saveMcpConfig(home, { servers: { alpha: McpServerConfigSchema.parse({ transport: 'http', url: alpha.url }) } });
    const serve = new McpManager({ home, clientVersion: 'test', secrets: new FileSecretStore(home), reconnectDelaysMs: [100] });
    cleanups.push(() => serve.close());
    expect((await serve.connectAll())[0]).toMatchObject({
      state: 'failed',
      reason: 'MCP server alpha needs authorization: run agent-desk mcp login alpha',
    });
    expect(serve.connection('alpha')!.availability()).toMatchObject({
      available: false,
      reason: expect.stringContaining('run agent-desk mcp login alpha'),
    });

    // `agent-desk mcp login alpha` in another process: its own manager and store over the same data folder.
    const cliLogin = new McpManager({ home, clientVersion: 'test', secrets: new FileSecretStore(home), reconnectDelaysMs: [] });
    cleanups.push(() => cliLogin.close());
    await cliLogin.login('alpha', { openUrl: async (url) => void fetch(url).then((r) => r.text()) });
    await cliLogin.close();

    const connection = serve.connection('alpha')!;
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (connection.state === 'connected') resolve(void clearInterval(check));
      }, 50);
    });
    const called = await connection.callTool('whoami', {}, { signal: AbortSignal.timeout(30_000) });
    expect(called.content).toEqual([{ type: 'text', text: 'answered by alpha' }]);
    expect(authority.grants).toEqual(['authorization_code']);
  }, 60_000);
});
