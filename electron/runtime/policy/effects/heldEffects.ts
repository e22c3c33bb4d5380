import type { Approval, ApprovalPreview, HeldEffect, PolicyDecision, RiskClass } from '../../../contract/index.js';
import { ToolError } from '../../tools/types.js';
import type { ApprovedCall } from './approvedCall.js';

/** The human approval a call runs under (kept in `approvedCall.ts` so `tools/types.ts` need not import this file). */
export type { ApprovedCall } from './approvedCall.js';

const SEVERITY: readonly RiskClass[] = ['payment', 'delete', 'send', 'write'];

/**
 * A tool call whose page sent state-changing requests the gate held (aborted before they left):
 * the engine turns it into an approval of this step, and on approval runs it again with
 * exactly these effects allowed once.
 */
export class EffectHeldError extends ToolError {
  constructor(
    readonly effects: readonly HeldEffect[],
    readonly preview: ApprovalPreview,
  ) {
    super(`held ${describeEffects(effects)}: it needs an approval before it is sent`, false, 'effect_held');
    this.name = 'EffectHeldError';
  }

  /** The most severe risk among the held effects first. */
  get risks(): RiskClass[] {
    const present = new Set(this.effects.map((e) => e.risk));
    return SEVERITY.filter((r) => present.has(r));
  }

  /** The gate's decision for the approval: it asks, and a payment is never remembered. */
  decision(): PolicyDecision {
    const risks = this.risks;
    return {
      effect: 'ask',
      risks,
      source: 'default',
      reason: `the page sent ${describeEffects(this.effects)} after the agent's action; state-changing requests ask by default`,
      rememberable: false,
    };
  }
}

/** "POST http://shop.test/pay" or "2 requests (POST …, WS …)". */
export function describeEffects(effects: readonly HeldEffect[]): string {
  const one = (e: HeldEffect) => `${e.method} ${e.url}`;
  return effects.length === 1 ? one(effects[0]!) : `${effects.length} requests (${effects.map(one).join(', ')})`;
}

/** What an approved approval lets its step do (undefined for any other approval). */
export function approvedCallOf(approval: Approval | undefined): ApprovedCall | undefined {
  if (approval?.status !== 'approved') return undefined;
  return { risks: approval.risks, ...(approval.preview.effects && { effects: approval.preview.effects }) };
}
