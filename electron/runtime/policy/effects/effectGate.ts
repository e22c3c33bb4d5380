import type { HeldEffect, RiskClass } from '../../../contract/index.js';
import type { ApprovedCall } from './heldEffects.js';
import { writesAllowed, type WriteOrigin } from './writeOrigins.js';

/** What the gate says about one state-changing request. */
export interface EffectVerdict {
  pass: boolean;
  reason: string;
}

/** One agent action's window: what its approval allows, and what it held. */
interface ActionWindow {
  /** Effects a human approved by method, origin and path; each passes once. */
  exact: HeldEffect[];
  /** A step approved for its label lets its own page's writes of the approved risks through. */
  firstParty?: { origin: string; risks: ReadonlySet<RiskClass> };
  held: HeldEffect[];
}

/**
 * The browser's effect gate for one task: every state-changing request a page sends is decided
 * here before it leaves. During an agent action (click, fill, type, press, select) one that no
 * approval or `policy.allowWrites` explains is held, so the action can ask for it; outside any
 * action (page timers, reads) it is simply blocked. Cross-origin GET navigations count only
 * inside an action: reading pages the allowlist admits needs no approval.
 */
export class EffectGate {
  private window: ActionWindow | undefined;

  constructor(private readonly allowWrites: readonly WriteOrigin[]) {}

  /** Opens an action's window, with what its approval (if any) allows on the page at `pageOrigin`. */
  open(approved: ApprovedCall | undefined, pageOrigin: string): void {
    const exact = [...(approved?.effects ?? [])];
    const byLabel = approved && !approved.effects;
    this.window = {
      exact,
      held: [],
      ...(byLabel && { firstParty: { origin: pageOrigin, risks: new Set<RiskClass>([...approved.risks, 'write']) } }),
    };
  }

  /** Closes the window and returns the effects it held. */
  close(): HeldEffect[] {
    const held = this.window?.held ?? [];
    this.window = undefined;
    return held;
  }

  /** Decides one request's effect; a held one is recorded for the open action's approval. */
  decide(effect: HeldEffect): EffectVerdict {
    if (effect.risk !== 'payment' && writesAllowed(this.allowWrites, effect.url)) {
      return { pass: true, reason: 'its origin is in policy.allowWrites' };
    }
    const window = this.window;
    if (!window) {
      // Opening a page is a read the navigate tool's own gate decided; only actions make navigations effects.
      if (effect.kind === 'navigation') return { pass: true, reason: 'a navigation outside an agent action' };
      return { pass: false, reason: `${effect.kind} ${effect.method} ${effect.url} was sent outside any agent action; blocked` };
    }
    const approvedAt = window.exact.findIndex((a) => sameEffect(a, effect));
    if (approvedAt >= 0) {
      window.exact.splice(approvedAt, 1);
      return { pass: true, reason: 'approved by the user, once' };
    }
    const first = window.firstParty;
    if (first && originOf(effect.url) === first.origin && first.risks.has(effect.risk)) {
      return { pass: true, reason: 'the approved action on its own page' };
    }
    window.held.push(effect);
    return { pass: false, reason: `held ${effect.method} ${effect.url} for approval (${effect.reasons.join('; ')})` };
  }

  /** True while an agent action is running. */
  get acting(): boolean {
    return this.window !== undefined;
  }
}

/** The same effect for an allowance: method, origin and path (the query and body may differ). */
function sameEffect(a: HeldEffect, b: HeldEffect): boolean {
  return a.method === b.method && a.kind === b.kind && originOf(a.url) === originOf(b.url) && pathOf(a.url) === pathOf(b.url);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
