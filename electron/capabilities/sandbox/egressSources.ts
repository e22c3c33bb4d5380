import type { HeldEffect } from '../../contract/index.js';
import { EffectGate } from '../../runtime/policy/effects/effectGate.js';
import type { ApprovedCall } from '../../runtime/policy/effects/heldEffects.js';
import type { WriteOrigin } from '../../runtime/policy/effects/writeOrigins.js';

/** What the proxy does with one state-changing request (or payment tunnel). */
export type EgressVerdict =
  | { action: 'forward'; reason: string }
  /** Not sent: no agent action explains it (or no task's desktop sent it). */
  | { action: 'refuse'; reason: string }
  /** Not sent: recorded for the running action's approval. */
  | { action: 'hold'; reason: string; effect: HeldEffect };

/** Quiet time after an action before its window closes, and the longest an action waits for quiet. */
const QUIET_MS = 150;
const MAX_SETTLE_MS = 2_000;

/** Who sits behind one source address: the task, and whether a person has the controls. */
export interface SourceOwner {
  taskId: string;
  /** True during a takeover: a person's own clicks are the person's decision, not the agent's. */
  humanAtControls(): boolean;
}

/**
 * One task desktop's effect gate, as the egress proxy sees it: the browser tier's `EffectGate`
 * (the same `policy.allowWrites`, exact approvals, first-party allowance of a label-approved
 * click), with the proxy's timing: an action's window closes only once no request of this
 * desktop is being decided and none came for a moment.
 */
export class SandboxEffects {
  private readonly gate: EffectGate;
  /** HTTPS tunnels a human approved in this window: the proxy cannot tell one tunnel's use from another's. */
  private readonly approvedTunnels = new Set<string>();
  private deciding = 0;
  private lastActivityAt = 0;

  constructor(
    readonly owner: SourceOwner,
    allowWrites: readonly WriteOrigin[],
  ) {
    this.gate = new EffectGate(allowWrites);
  }

  /** Opens an agent action's window with what its approval allows; `pageOrigin` is the desktop browser's page. */
  open(approved: ApprovedCall | undefined, pageOrigin: string): void {
    this.approvedTunnels.clear();
    this.gate.open(approved, pageOrigin);
  }

  /** Waits until the desktop's requests settled, closes the window and returns what it held. */
  async close(): Promise<HeldEffect[]> {
    const started = Date.now();
    while ((this.deciding > 0 || Date.now() - this.lastActivityAt < QUIET_MS) && Date.now() - started < MAX_SETTLE_MS) {
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 3));
    }
    this.approvedTunnels.clear();
    return distinct(this.gate.close());
  }

  /** A request of this desktop arrived (its body may still be coming). */
  arrived(): () => void {
    this.deciding++;
    this.lastActivityAt = Date.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.deciding--;
      this.lastActivityAt = Date.now();
    };
  }

  /** Decides one state-changing request (or payment tunnel) of this desktop. */
  decide(effect: HeldEffect): EgressVerdict {
    if (this.owner.humanAtControls()) return { action: 'forward', reason: 'a person has taken over this desktop' };
    if (effect.method === 'CONNECT' && this.approvedTunnels.has(effect.url))
      return { action: 'forward', reason: 'a tunnel approved by the user in this action' };
    const acting = this.gate.acting;
    const verdict = this.gate.decide(effect);
    if (verdict.pass) {
      if (effect.method === 'CONNECT' && acting) this.approvedTunnels.add(effect.url);
      return { action: 'forward', reason: verdict.reason };
    }
    if (!acting)
      return {
        action: 'refuse',
        reason: `${effect.method} ${effect.url} was sent outside any agent action of task ${this.owner.taskId}; refused`,
      };
    return { action: 'hold', reason: verdict.reason, effect };
  }
}

/**
 * Which task's desktop a request came from: the container's address on the egress network
 * (each task has its own container). An address no task registered gets no effect through.
 */
export class EgressSources {
  private readonly byAddress = new Map<string, SandboxEffects>();

  constructor(private readonly allowWrites: readonly WriteOrigin[] = []) {}

  /** Attributes an address to a task's desktop; returns its gate. */
  register(address: string, owner: SourceOwner): SandboxEffects {
    const effects = new SandboxEffects(owner, this.allowWrites);
    this.byAddress.set(normalizeAddress(address), effects);
    return effects;
  }

  /** Forgets an address (its desktop is gone). */
  unregister(address: string): void {
    this.byAddress.delete(normalizeAddress(address));
  }

  /** The gate of the desktop at `address`, if a task registered it. */
  at(address: string | undefined): SandboxEffects | undefined {
    return address === undefined ? undefined : this.byAddress.get(normalizeAddress(address));
  }

  /** Decides a state-changing request by where it came from. */
  decide(address: string | undefined, effect: HeldEffect): EgressVerdict {
    const source = this.at(address);
    if (source) return source.decide(effect);
    return {
      action: 'refuse',
      reason: `${effect.method} ${effect.url} came from ${address ?? 'an unknown address'}, no task's desktop; refused`,
    };
  }
}

/** A browser retries a refused tunnel or request; the approval lists each effect once. */
function distinct(effects: HeldEffect[]): HeldEffect[] {
  const seen = new Set<string>();
  return effects.filter((e) => {
    const key = JSON.stringify(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** IPv4 peers of a dual-stack socket read `::ffff:172.18.0.2`. */
function normalizeAddress(address: string): string {
  return address.replace(/^::ffff:/i, '');
}
