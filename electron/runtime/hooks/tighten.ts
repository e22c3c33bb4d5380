import type { PolicyDecision } from '../../contract/index.js';
import type { ToolHookVerdict } from './hooks.js';

/**
 * The gate's decision, tightened by a PreToolUse hook: a hook may turn allow into ask or deny,
 * and ask into deny, never the other way. What a hook asks for is asked every time (not
 * rememberable); a gate's deny stays the gate's.
 */
export function tightenWithHook(policy: PolicyDecision, hook: ToolHookVerdict | undefined): PolicyDecision {
  if (!hook || hook.effect === 'allow' || policy.effect === 'deny') return policy;
  if (hook.effect === 'deny') {
    const { rule: _rule, reasonTexts: _texts, ...rest } = policy;
    return { ...rest, effect: 'deny', source: 'hook', reason: hook.reason, rememberable: false };
  }
  if (policy.effect === 'ask') {
    // The raw reason names both; catalog texts would show only the gate's half.
    const { reasonTexts: _texts, ...rest } = policy;
    return { ...rest, reason: `${policy.reason}; ${hook.reason}`, rememberable: false };
  }
  const { rule: _rule, reasonTexts: _texts, ...rest } = policy;
  return { ...rest, effect: 'ask', source: 'hook', reason: hook.reason, rememberable: false };
}
