import { LOCAL_ACTOR, type Caller, type Role, type Scope } from '../../contract/index.js';
import type { CallContext } from './handlers.js';

/** The roles a token's scopes amount to, for a caller who is no signed-in person. */
export function rolesOfScopes(scopes: readonly Scope[]): Role[] {
  if (scopes.includes('operator.admin')) return ['admin'];
  const roles: Role[] = [];
  if (scopes.includes('operator.write')) roles.push('operator');
  if (scopes.includes('operator.approvals')) roles.push('approver');
  if (roles.length === 0 && scopes.includes('operator.read')) roles.push('viewer');
  return roles;
}

/**
 * Who a call acts as. A signed-in person is themselves; every other credential (the gateway's
 * own token, a token issued to nobody) is the one local operator with the roles its scopes
 * give — tokens are not people, so two of them never make four eyes.
 */
export function callerOf(ctx: Pick<CallContext, 'caller' | 'scopes'>): Caller {
  return ctx.caller ?? { ...LOCAL_ACTOR, roles: rolesOfScopes(ctx.scopes), groups: [], signedIn: false };
}
