import { describe, expect, it } from 'vitest';
import { isoAt } from '../../../electron/runtime/clock.js';

describe('isoAt', () => {
  it('gives each millisecond its own text, also when asked again for an earlier one', () => {
    expect(isoAt(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoAt(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoAt(1)).toBe('1970-01-01T00:00:00.001Z');
    expect(isoAt(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(() => isoAt(Number.NaN)).toThrow(RangeError);
  });
});
