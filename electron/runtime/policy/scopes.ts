import type { Scope } from '../../contract/index.js';

/**
 * True when `granted` covers `required`. `operator.admin` implies every scope except
 * `operator.secrets`: secret values stay behind their own, explicit grant.
 */
export function hasScope(granted: readonly Scope[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  return required !== 'operator.secrets' && granted.includes('operator.admin');
}

/** The message for a caller that lacks `required`, saying which grant would do. */
export function missingScopeMessage(required: Scope): string {
  if (required === 'operator.secrets') {
    return 'this needs the "operator.secrets" scope (operator.admin does not include it); connect with a token that grants it';
  }
  if (required === 'operator.admin') {
    return 'this needs the "operator.admin" scope; connect with a token that grants it';
  }
  return `this needs the "${required}" scope (or "operator.admin"); connect with a token that grants it`;
}
