import { describe, expect, it } from 'vitest';
import { needsConfirmKey } from '../../../renderer/src/features/approvals/approvalKeys.js';

describe('approval keyboard gate', () => {
  it('payment, delete and never-rememberable approvals take a second key', () => {
    expect(needsConfirmKey({ risks: ['payment'], rememberable: false })).toBe(true);
    expect(needsConfirmKey({ risks: ['delete'], rememberable: true })).toBe(true);
    expect(needsConfirmKey({ risks: ['write'], rememberable: false })).toBe(true);
  });

  it('a write inside the usual rules is approved by A alone', () => {
    expect(needsConfirmKey({ risks: ['write'], rememberable: true })).toBe(false);
  });
});
