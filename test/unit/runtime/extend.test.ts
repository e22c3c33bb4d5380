import { describe, expect, it } from 'vitest';
import { extend } from '../../../electron/runtime/extend.js';

describe('extend', () => {
  it('is the spread {...base, ...fields}: same keys in the same order, fields win, base untouched', () => {
    const base = { id: 'a', status: 'started', index: 3 };
    const fields = { status: 'completed', output: { value: 1 }, endedAt: 'now' };
    const made = extend(base, fields);
    expect(made).toEqual({ ...base, ...fields });
    expect(Object.keys(made)).toEqual(Object.keys({ ...base, ...fields }));
    expect(base).toEqual({ id: 'a', status: 'started', index: 3 });
    expect(made).not.toBe(base);
  });
});
