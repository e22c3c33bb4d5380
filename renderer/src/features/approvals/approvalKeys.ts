import type { Approval } from '../../../../electron/contract/index.js';

/** Risks whose approval by keyboard takes a second, deliberate key (A, then Enter). */
const CONFIRM_RISKS: ReadonlySet<string> = new Set(['payment', 'delete', 'send', 'secrets', 'exec']);

/** True when one stray key press must not approve this: a payment, a delete, or anything asked every time. */
export function needsConfirmKey(approval: Pick<Approval, 'risks' | 'rememberable'>): boolean {
  return !approval.rememberable || approval.risks.some((r) => CONFIRM_RISKS.has(r));
}

/** True when a key press is typing into a field rather than a shortcut (radio buttons and checkboxes are not typing). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return target.type !== 'radio' && target.type !== 'checkbox';
  return target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable;
}
