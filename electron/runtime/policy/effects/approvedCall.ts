import type { HeldEffect, RiskClass } from '../../../contract/index.js';

/**
 * The human approval a call runs under: the risks that were approved and, when the approval was
 * for requests the browser held, exactly those requests (each may pass once).
 */
export interface ApprovedCall {
  risks: readonly RiskClass[];
  effects?: readonly HeldEffect[];
}
