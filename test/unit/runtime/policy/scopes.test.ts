import { describe, expect, it } from 'vitest';
import { hasScope, missingScopeMessage } from '../../../../electron/runtime/policy/scopes.js';

describe('hasScope', () => {
  it('a granted scope is held', () => {
    expect(hasScope(['operator.read'], 'operator.read')).toBe(true);
  });

  it('a scope that was not granted is not held', () => {
    expect(hasScope(['operator.read'], 'operator.write')).toBe(false);
    expect(hasScope([], 'operator.read')).toBe(false);
  });

  it('admin implies read, write and approvals', () => {
    for (const scope of ['operator.read', 'operator.write', 'operator.approvals', 'operator.admin'] as const) {
      expect(hasScope(['operator.admin'], scope)).toBe(true);
    }
  });

  it('admin does not imply secrets', () => {
    expect(hasScope(['operator.admin'], 'operator.secrets')).toBe(false);
    expect(hasScope(['operator.admin', 'operator.secrets'], 'operator.secrets')).toBe(true);
  });
});

describe('missingScopeMessage', () => {
  it('names the scope and that admin would do', () => {
    expect(missingScopeMessage('operator.write')).toContain('"operator.write"');
    expect(missingScopeMessage('operator.write')).toContain('operator.admin');
  });

  it('says admin does not cover secrets', () => {
    expect(missingScopeMessage('operator.secrets')).toMatch(/operator\.admin does not include it/);
  });
});
