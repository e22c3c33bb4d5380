import {
  DEFAULT_APPROVAL_RULE,
  type Actor,
  type ApprovalRule,
  type Caller,
  type PolicyConfig,
  type RiskClass,
  type Role,
} from '../../contract/index.js';

/** Just who someone is, as recorded (no roles or groups). */
export const actorOf = ({ subject, name }: Actor): Actor => ({ subject, name });

/**
 * The rule for an action with these risks: the strictest of the rules configured for them —
 * the most approvers, `notOwner` if any says so, and the roles and groups of the rule asking
 * for the most people. Undefined when policy names none (one approver, as always).
 */
export function combinedRule(rules: PolicyConfig['approvals'], risks: readonly RiskClass[]): ApprovalRule | undefined {
  const named = risks.map((r) => rules[r]).filter((r): r is ApprovalRule => r !== undefined);
  if (named.length === 0) return undefined;
  const strictest = named.reduce((a, b) => (b.approvers > a.approvers ? b : a));
  return { ...strictest, notOwner: named.some((r) => r.notOwner) };
}

/** Why `caller` may not decide under `rule` at all (role or group), or undefined when they may. */
export function decideRefusal(caller: Caller, rule: ApprovalRule = DEFAULT_APPROVAL_RULE): string | undefined {
  if (!caller.roles.some((r) => rule.roles.includes(r))) {
    return `${caller.name} may not decide this approval: it needs one of the roles ${rule.roles.join(', ')}`;
  }
  if (rule.groups && !caller.groups.some((g) => rule.groups!.includes(g))) {
    return `${caller.name} may not decide this approval: it needs a member of ${rule.groups.join(', ')}`;
  }
  return undefined;
}

/** Why `caller` may not approve (deny is still theirs): the task is their own and the rule says not the owner. */
export function approveRefusal(caller: Caller, rule: ApprovalRule, owner: Actor | undefined): string | undefined {
  if (rule.notOwner && owner !== undefined && owner.subject === caller.subject) {
    return `${caller.name} started this task and may not approve it: another person must`;
  }
  return undefined;
}

/** A remembered grant as the gate weighs it (the store's GrantRepo finds them). */
export interface GrantCandidate {
  scope: 'task' | 'always';
  granter?: { subject: string; roles?: readonly Role[]; removed: boolean };
  taskOwner?: string;
}

/**
 * A grant reaches no further than its granter may decide now: not once they were removed or lost
 * every role the rule names, and not for their own task where the rule says `notOwner`.
 * Grants from before people, or by the local operator, hold as before.
 */
export function grantHolds(grant: GrantCandidate, rule: ApprovalRule = DEFAULT_APPROVAL_RULE): boolean {
  const granter = grant.granter;
  if (!granter?.roles) return true;
  if (granter.removed || !granter.roles.some((r) => rule.roles.includes(r))) return false;
  return !(rule.notOwner && grant.taskOwner === granter.subject);
}
