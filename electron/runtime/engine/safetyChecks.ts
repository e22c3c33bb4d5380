import type { ApprovalPreview, PolicyDecision } from '../../contract/index.js';

/** A check the model provider attached to a call (OpenAI computer use `pending_safety_checks`). */
export interface ProviderSafetyCheck {
  id: string;
  code: string;
  message: string;
}

/**
 * A call the provider flagged always asks, whatever the rules or remembered approvals say (a
 * deny still denies), and the decision cannot be remembered: each flag is answered on its own.
 * The checks stay on the step's recorded policy, so they can be acknowledged after a restart.
 */
export function withSafetyChecks(policy: PolicyDecision, checks: readonly ProviderSafetyCheck[] | undefined): PolicyDecision {
  if (!checks?.length || policy.effect === 'deny') return policy;
  return {
    ...policy,
    effect: 'ask',
    source: 'default',
    reason: `${describeChecks(checks)}; ${policy.reason}`,
    rememberable: false,
    safetyChecks: checks.map(({ id, code, message }) => ({ id, code, message })),
  };
}

/** The approval preview names what the provider flagged, before anything else. */
export function previewWithSafetyChecks(preview: ApprovalPreview, checks: readonly ProviderSafetyCheck[] | undefined): ApprovalPreview {
  if (!checks?.length) return preview;
  // The provider's own words have no catalog entry: the summary stays English as a whole.
  const { summaryText: _coded, ...rest } = preview;
  return { ...rest, summary: `${preview.summary} — ${describeChecks(checks)}` };
}

function describeChecks(checks: readonly ProviderSafetyCheck[]): string {
  return `the model provider flagged this action: ${checks.map((c) => `${c.code || 'safety check'}: ${c.message}`).join('; ')}`;
}
