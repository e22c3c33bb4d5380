import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpOAuthStore } from '../../../../../electron/capabilities/mcp/oauth/mcpOAuthStore.js';
import { FileSecretStore } from '../../../../../electron/capabilities/secrets/fileSecretStore.js';

const secretsIn = () => new FileSecretStore(mkdtempSync(path.join(os.tmpdir(), 'agent-desk-oauth-store-')));

describe('MCP OAuth state in the secret store', () => {
  it('keeps each token as its own secret and gives the remaining lifetime back', () => {
    const secrets = secretsIn();
    let now = 1_000_000;
    const store = new McpOAuthStore(secrets, 'docs', 'https://mcp.example.com/mcp', () => now);
    store.saveTokens({
      access_token: 'at-1234',
      refresh_token: 'rt-5678',
      token_type: 'Bearer',
      expires_in: 600,
      issuer: 'https://as.example.com',
    });
    expect(secrets.get('mcp.docs.oauth.access_token')).toBe('at-1234');
    expect(secrets.get('mcp.docs.oauth.refresh_token')).toBe('rt-5678');
    expect(secrets.get('mcp.docs.oauth')).not.toContain('at-1234');
    now += 100_000;
    expect(store.tokens()).toEqual({
      access_token: 'at-1234',
      refresh_token: 'rt-5678',
      token_type: 'Bearer',
      expires_in: 500,
      issuer: 'https://as.example.com',
    });
    expect(store.accessTokenExpired()).toBe(false);
    now += 480_000; // within the 30 s margin of the expiry
    expect(store.accessTokenExpired()).toBe(true);
  });

  it('tokens obtained for one server URL are dropped, not returned, when the server is reached at another', () => {
    const secrets = secretsIn();
    new McpOAuthStore(secrets, 'docs', 'https://mcp.example.com/mcp').saveTokens({ access_token: 'at-old1', token_type: 'Bearer' });
    const moved = new McpOAuthStore(secrets, 'docs', 'https://evil.example.net/mcp');
    expect(moved.tokens()).toBeUndefined();
    expect(secrets.list()).toEqual([]);
  });

  it("a dynamic client's secret is a secret of its own; forgetAll leaves nothing", () => {
    const secrets = secretsIn();
    const store = new McpOAuthStore(secrets, 'docs', 'https://mcp.example.com/mcp');
    store.saveDynamicClient({ client_id: 'c1', client_secret: 'cs-9999', redirect_uris: ['http://127.0.0.1:4000/callback'] });
    expect(secrets.get('mcp.docs.oauth')).not.toContain('cs-9999');
    expect(store.dynamicClient()).toEqual({ client_id: 'c1', client_secret: 'cs-9999', redirect_uris: ['http://127.0.0.1:4000/callback'] });
    expect(store.forgetAll()).toBe(true);
    expect(secrets.list()).toEqual([]);
    expect(store.forgetAll()).toBe(false);
  });
});
