import { describe, expect, it } from 'vitest';
import { SOAK_SIZES, soakSize } from '../../support/sizes.js';

const queue = SOAK_SIZES.queueTasks;

describe('soak sizes', () => {
  it('are the CI default with nothing set, the full size under AGENT_DESK_SOAK=full, and a size’s own variable over both', () => {
    expect(soakSize(queue, {})).toBe(queue.ci);
    expect(soakSize(queue, { AGENT_DESK_SOAK: 'full' })).toBe(queue.full);
    expect(soakSize(queue, { AGENT_DESK_SOAK: 'full', [queue.variable]: '7' })).toBe(7);
  });

  it('refuse a size that is not a positive whole number, or an unknown soak, saying which variable', () => {
    expect(() => soakSize(queue, { [queue.variable]: 'lots' })).toThrow(queue.variable);
    expect(() => soakSize(queue, { [queue.variable]: '0' })).toThrow(/positive whole number/);
    expect(() => soakSize(queue, { AGENT_DESK_SOAK: 'huge' })).toThrow(/AGENT_DESK_SOAK/);
  });

  it('keep every CI default below its full size, and every variable distinct', () => {
    for (const s of Object.values(SOAK_SIZES)) expect(s.ci).toBeLessThan(s.full);
    const variables = Object.values(SOAK_SIZES).map((s) => s.variable);
    expect(new Set(variables).size).toBe(variables.length);
  });
});
