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

  it('cross_app_access needs its identity provider and the pre-registered client; the identity provider is for that grant only, https or loopback', () => {
    const idp = { issuer: 'https://idp.example.com', clientId: 'agent-desk' };
    expect(http({ grant: 'cross_app_access', clientId: 'c1', clientSecretSecret: 'docs-secret', identityProvider: idp }).success).toBe(
      true,
    );
    expect(http({ grant: 'cross_app_access', clientId: 'c1' }).error?.issues[0]).toMatchObject({ path: ['oauth', 'identityProvider'] });
    expect(http({ grant: 'cross_app_access', identityProvider: idp }).error?.issues[0]).toMatchObject({
      path: ['oauth', 'identityProvider'],
    });
    expect(http({ clientId: 'c1', identityProvider: idp }).error?.issues[0]).toMatchObject({ path: ['oauth', 'identityProvider'] });
    const issuer = (url: string) => http({ grant: 'cross_app_access', clientId: 'c1', identityProvider: { ...idp, issuer: url } }).success;
    expect(issuer('http://127.0.0.1:4000')).toBe(true);
    expect(issuer('http://idp.example.com')).toBe(false);
    expect(issuer('http://127.0.0.1.evil.example')).toBe(false);
  });
});
