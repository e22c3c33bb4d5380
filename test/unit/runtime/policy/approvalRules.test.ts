import { describe, expect, it } from 'vitest';
import { combinedRule, grantHolds } from '../../../../electron/runtime/policy/approvalRules.js';

describe('approval rules', () => {
  it('the strictest rule of an action’s risks applies: most approvers, notOwner from any', () => {
    const rules = {
      delete: { approvers: 1, notOwner: true, roles: ['approver' as const] },
      payment: { approvers: 2, notOwner: false, roles: ['admin' as const] },
    };
    expect(combinedRule(rules, ['delete', 'payment'])).toEqual({ approvers: 2, notOwner: true, roles: ['admin'] });
    expect(combinedRule(rules, ['read'])).toBeUndefined();
  });

  it('a grant holds only while its granter may decide, and never for their own task under notOwner', () => {
    const rule = { approvers: 1, notOwner: true, roles: ['approver' as const] };
    const bob = { subject: 'idp#bob', roles: ['approver' as const], removed: false };
    expect(grantHolds({ scope: 'always', granter: bob, taskOwner: 'idp#alice' }, rule)).toBe(true);
    expect(grantHolds({ scope: 'always', granter: bob, taskOwner: 'idp#bob' }, rule)).toBe(false);
    expect(grantHolds({ scope: 'always', granter: { ...bob, removed: true }, taskOwner: 'idp#alice' }, rule)).toBe(false);
    expect(grantHolds({ scope: 'always', granter: { ...bob, roles: ['viewer'] }, taskOwner: 'idp#alice' }, rule)).toBe(false);
    expect(grantHolds({ scope: 'task' }, rule), 'a grant from before people holds as before').toBe(true);
  });
});
