import type { Approval } from '../../../../electron/contract/index.js';

/** Risks whose approval by keyboard takes a second, deliberate key (A, then Enter). */
const CONFIRM_RISKS: ReadonlySet<string> = new Set(['payment', 'delete', 'send', 'secrets', 'exec']);

/** True when one stray key press must not approve this: a payment, a delete, or anything asked every time. */
export function needsConfirmKey(approval: Pick<Approval, 'risks' | 'rememberable'>): boolean {
  return !approval.rememberable || approval.risks.some((r) => CONFIRM_RISKS.has(r));
}
