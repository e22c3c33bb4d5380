import { describe, expect, it } from 'vitest';
import { AgentDeskError } from '../../../../../electron/runtime/errors.js';
import { compileWriteOrigins, writesAllowed } from '../../../../../electron/runtime/policy/effects/writeOrigins.js';

describe('policy.allowWrites origins', () => {
  it('match scheme, host and port globs; a pattern without a port matches any port', () => {
    const origins = compileWriteOrigins(['http://127.0.0.1:*', 'https://*.example.com']);
    expect(writesAllowed(origins, 'http://127.0.0.1:8080/api')).toBe(true);
    expect(writesAllowed(origins, 'https://127.0.0.1:8080/api')).toBe(false);
    expect(writesAllowed(origins, 'https://shop.example.com/cart')).toBe(true);
    expect(writesAllowed(origins, 'wss://shop.example.com/ws')).toBe(true);
    expect(writesAllowed(origins, 'http://shop.example.com/cart')).toBe(false);
    expect(writesAllowed(compileWriteOrigins(['https://a.test:8443']), 'https://a.test/x')).toBe(false);
  });

  it('a bad entry is a typed error naming its index', () => {
    try {
      compileWriteOrigins(['http://ok.test', 'ok.test', 'ftp://x.test']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AgentDeskError);
      expect((error as AgentDeskError).code).toBe('invalid_params');
      expect((error as Error).message).toMatch(/policy\.allowWrites\[1\][\s\S]*policy\.allowWrites\[2\]/);
    }
  });
});
