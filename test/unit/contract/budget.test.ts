import { describe, expect, it } from 'vitest';
import { BudgetLimitsSchema, ConfigSchema, PlaybookSchema } from '../../../electron/contract/index.js';

describe('budget limits', () => {
  it('keep only the fields given, so a weaker layer is not overridden by defaults', () => {
    expect(BudgetLimitsSchema.parse({ maxSteps: 7 })).toEqual({ maxSteps: 7 });
    expect(ConfigSchema.parse({ budget: { maxCostUsd: 1 } }).budget).toEqual({ maxCostUsd: 1 });
  });

  it('refuse an unknown field, naming it', () => {
    const parsed = ConfigSchema.safeParse({ budget: { maxStep: 10 } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('maxStep');
    expect(PlaybookSchema.safeParse({ name: 'x', budget: { maxStep: 1 }, steps: [{ tool: 'echo', args: {} }] }).success).toBe(false);
  });
});
