import { describe, expect, it } from 'vitest';
import { fsWriteTool } from '../../../../electron/runtime/tools/builtin/fsWrite.js';
import { httpRequestTool } from '../../../../electron/runtime/tools/builtin/httpRequest.js';
import { hostMatches, normalizeHostPattern } from '../../../../electron/runtime/secrets/secretHosts.js';
import { resolveSecretRefs, secretRefNames, type SecretSource } from '../../../../electron/runtime/secrets/secretRefs.js';
import { Redactor } from '../../../../electron/runtime/trace/redactor.js';

const source = (values: Record<string, string>, hosts: Record<string, string[]>): SecretSource => ({
  value: (name) => values[name],
  hosts: (name) => hosts[name] ?? [],
});
const http = (args: Record<string, unknown>) => httpRequestTool.input.parse(args);

describe('secret host bindings', () => {
  it('match a host on any port, host:port on that port, *.domain its subdomains only', () => {
    expect(hostMatches('api.example.com', 'api.example.com:443')).toBe(true);
    expect(hostMatches('api.example.com', 'api.example.com:8080')).toBe(true);
    expect(hostMatches('api.example.com:443', 'api.example.com:8080')).toBe(false);
    expect(hostMatches('api.example.com', 'evil-api.example.com:443')).toBe(false);
    expect(hostMatches('api.example.com', 'api.example.com.evil.net:443')).toBe(false);
    expect(hostMatches('*.example.com', 'eu.api.example.com:443')).toBe(true);
    expect(hostMatches('*.example.com', 'example.com:443')).toBe(false);
    expect(hostMatches('*.example.com', 'badexample.com:443')).toBe(false);
    expect(hostMatches('[::1]:8080', '[::1]:8080')).toBe(true);
    expect(hostMatches('API.Example.COM', 'api.example.com:443')).toBe(true);
    expect(normalizeHostPattern('bücher.example')).toBe('xn--bcher-kva.example');
  });
});

describe('resolving ${secret:name}', () => {
  const redactor = new Redactor();
  const ctx = (secrets: SecretSource) => ({ workspace: '/tmp', secrets, redactor });

  it('finds every reference, keys included', () => {
    expect(secretRefNames({ headers: { authorization: 'Bearer ${secret:a}', '${secret:b}': 'x' }, body: ['${secret:a}'] })).toEqual([
      'a',
      'b',
    ]);
  });

  it('puts the value in for a bound host and teaches the redactor the value', () => {
    const args = http({ url: 'https://api.example.com/u', headers: { authorization: 'Bearer ${secret:gh}' } });
    const resolved = resolveSecretRefs(httpRequestTool, args, ctx(source({ gh: 'tok-abcdef' }, { gh: ['api.example.com'] })));
    expect(resolved).toMatchObject({ headers: { authorization: 'Bearer tok-abcdef' } });
    expect(args.headers).toEqual({ authorization: 'Bearer ${secret:gh}' }); // the recorded call is untouched
    expect(redactor.text('tok-abcdef')).toBe('[secret:gh]');
  });

  it('refuses a value that would move the request to another host', () => {
    // The approved call goes to api.example.com; the value's "@evil.net/#" would send it to evil.net.
    const secrets = source({ pw: 'hunter2@evil.net/#' }, { pw: ['api.example.com'] });
    const args = http({ url: 'https://user:${secret:pw}@api.example.com/' });
    expect(() => resolveSecretRefs(httpRequestTool, args, ctx(secrets))).toThrow(
      /secret_not_allowed: .*would change where http.request sends/,
    );
  });

  it('refuses tools that name no destination host, such as fs.write', () => {
    const args = fsWriteTool.input.parse({ path: 'k.txt', content: '${secret:gh}' });
    expect(() => resolveSecretRefs(fsWriteTool, args, ctx(source({ gh: 'tok-abcdef' }, { gh: ['*'] })))).toThrow(
      /^secret_not_allowed: fs\.write cannot take/,
    );
  });

  it('refuses a desktop or browser call even when it names a bound host: its result may be a screenshot', () => {
    const openUrl = { ...httpRequestTool, name: 'sandbox.open_url', tier: 'gui' as const };
    const args = http({ url: 'https://api.example.com/?k=${secret:gh}' });
    expect(() => resolveSecretRefs(openUrl, args, ctx(source({ gh: 'tok-abcdef' }, { gh: ['api.example.com'] })))).toThrow(
      /^secret_not_allowed: sandbox\.open_url cannot take/,
    );
  });

  it('without a secret store every reference is refused', () => {
    const args = http({ url: 'https://api.example.com/?k=${secret:gh}' });
    expect(() => resolveSecretRefs(httpRequestTool, args, { workspace: '/tmp', secrets: undefined, redactor })).toThrow(
      /no secret named "gh" is stored/,
    );
  });
});
