import { describe, expect, it } from 'vitest';
import { planOrder } from '../../support/timedSequencer.js';

const file = (item: string, ms: number, heavy = false) => ({ item, ms, heavy });

describe('the planned order of test files', () => {
  it('runs heavy files back to back on one worker while the light ones fill the other', () => {
    const order = planOrder([file('H1', 100, true), file('H2', 80, true), file('a', 60), file('b', 50), file('c', 40), file('d', 30)], 2);
    // Worker 1: H1 (0–100), then H2 (100–180). Worker 2: a, b (0–110)… H2 is handed out when
    // worker 1 frees at 100, before the light files left.
    expect(order).toEqual(['H1', 'a', 'b', 'H2', 'c', 'd']);
  });

  it('never hands out a second heavy file while one runs, if a light file is left', () => {
    const order = planOrder([file('H1', 100, true), file('H2', 100, true), file('a', 10)], 2);
    expect(order).toEqual(['H1', 'a', 'H2']);
  });

  it('is the longest first with no heavy file, and keeps every file once', () => {
    const files = [file('s', 1), file('l', 9), file('m', 5)];
    expect(planOrder(files, 2)).toEqual(['l', 'm', 's']);
    expect(planOrder(files, 1)).toEqual(['l', 'm', 's']);
    expect(planOrder([], 2)).toEqual([]);
  });
});
