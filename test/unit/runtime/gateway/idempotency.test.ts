import { describe, expect, it } from 'vitest';
import { paramsDigest } from '../../../../electron/runtime/gateway/index.js';

describe('params digest', () => {
  it('ignores key order at every depth', () => {
    expect(paramsDigest({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: 'x' } })).toBe(
      paramsDigest({ b: { f: 'x', c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });

  it('differs when a value differs, and when array order differs', () => {
    expect(paramsDigest({ a: 1 })).not.toBe(paramsDigest({ a: 2 }));
    expect(paramsDigest([1, 2])).not.toBe(paramsDigest([2, 1]));
  });

  it('is a sha256 hex string', () => {
    expect(paramsDigest({})).toMatch(/^[0-9a-f]{64}$/);
  });

  it('drops undefined members as JSON does and keeps a __proto__ key as data', () => {
    expect(paramsDigest({ b: undefined, a: 1 })).toBe(paramsDigest({ a: 1 }));
    expect(paramsDigest(JSON.parse('{"__proto__":{"x":1},"a":2}'))).not.toBe(paramsDigest({ a: 2 }));
  });
});
