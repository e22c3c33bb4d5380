import { describe, expect, it } from 'vitest';
import { McpServerConfigSchema } from '../../../../../electron/contract/index.js';

const http = (oauth: unknown) => McpServerConfigSchema.safeParse({ transport: 'http', url: 'https://mcp.example.com/mcp', oauth });

describe('the oauth block of an HTTP server in mcp.json', () => {
  it('takes loopback redirect URIs with a port only', () => {
    for (const uri of ['http://127.0.0.1:8765/callback', 'http://localhost:9000/oauth/back', 'http://[::1]:8765/callback']) {
      expect(http({ redirectUri: uri }).success, uri).toBe(true);
    }
    for (const uri of [
      'https://127.0.0.1:8765/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1.evil.example:8765/callback',
      'http://evil.example:8765/callback',
      'http://127.0.0.1:8765/callback?next=https://evil.example',
    ]) {
      expect(http({ redirectUri: uri }).success, uri).toBe(false);
    }
  });

  it('names the client secret by secret name and needs the client it belongs to; client_credentials needs both', () => {
    expect(http({ clientId: 'c1', clientSecretSecret: 'docs-secret' }).success).toBe(true);
    expect(http({ clientSecretSecret: 'docs-secret' }).error?.issues[0]).toMatchObject({ path: ['oauth', 'clientSecretSecret'] });
    expect(http({ clientSecretSecret: 'not a name!' }).success).toBe(false);
    expect(http({ grant: 'client_credentials', clientId: 'c1' }).error?.issues[0]).toMatchObject({ path: ['oauth', 'grant'] });
    expect(http({ grant: 'client_credentials', clientId: 'c1', clientKeySecret: 'docs-key' }).success).toBe(true);
    expect(http({ clientId: 'c1', clientKeySecret: 'docs-key', clientSecretSecret: 'docs-secret' }).error?.issues[0]).toMatchObject({
      path: ['oauth', 'clientKeySecret'],
    });
    expect(http({ unknown: true }).success).toBe(false);
  });
});
