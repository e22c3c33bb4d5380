import { ulid } from 'ulid';
import {
  DEFAULT_APPROVAL_RULE,
  LOCAL_ACTOR,
  type Actor,
  type Approval,
  type ApprovalDecision,
  type ApprovalPreview,
  type Caller,
  type PolicyDecision,
} from '../../contract/index.js';
import { isoAt, type Clock } from '../clock.js';
import type { Emit } from '../engine/ports.js';
import { AgentDeskError } from '../errors.js';
import type { StoredApproval } from '../store/approvalRepo.js';
import type { Repos, Store } from '../store/store.js';
import { actorOf, approveRefusal, decideRefusal } from './approvalRules.js';
import { assertRememberAllowed } from './gate.js';
import type { TraceLog } from '../trace/traceLog.js';
import type { Redactor } from '../trace/redactor.js';

/** What the engine asks a human to decide. */
export interface ApprovalRequest {
  taskId: string;
  stepId: string;
  tool: string;
  subject: string;
  args: unknown;
  decision: PolicyDecision;
  preview: ApprovalPreview;
  /** The task's owner, kept on the approval so `notOwner` holds whoever decides. */
  owner?: Actor;
}

/** The names a final decision records: everyone whose approval counted, or the one who denied. */
function deciders(approval: StoredApproval, last: Actor, decision: 'approve' | 'deny'): string {
  if (decision === 'deny') return last.name;
  const names = (approval.votes ?? []).filter((v) => v.counted && v.decision === 'approve').map((v) => v.by.name);
  return [...names, last.name].join(', ');
}

/** Who decides when a caller names nobody (in-process callers, evals): the local operator with every role. */
const LOCAL_CALLER: Caller = { ...LOCAL_ACTOR, roles: ['admin'], groups: [], signedIn: false };

const publicView = ({ subject: _subject, ...approval }: StoredApproval): Approval => approval;

/**
 * Persists approval requests and decisions. Decisions reach a waiting runner in-process at once,
 * and from other processes (a CLI sharing the database) through polling.
 */
export class ApprovalBroker {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: Store,
    private readonly trace: TraceLog,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
    private readonly emit: Emit,
  ) {}

  async request(req: ApprovalRequest): Promise<Approval> {
    const pending = this.prepare(req);
    await this.store.transaction((tx) => pending.persist(tx));
    pending.announce();
    return pending.approval;
  }

  /**
   * An approval request in two halves, so a runner can write it in its own queue, in order with
   * its steps: `persist` (row + `approval.requested` trace event) inside the runner's commit,
   * `announce` (the event) once that commit landed.
   */
  prepare(req: ApprovalRequest): { approval: Approval; persist(tx: Repos): Promise<void>; announce(): void } {
    const approval: StoredApproval = {
      id: `apr_${ulid()}`,
      taskId: req.taskId,
      stepId: req.stepId,
      tool: req.tool,
      subject: this.redactor.text(req.subject),
      args: this.redactor.value(req.args),
      risks: req.decision.risks,
      reason: req.decision.reason,
      preview: this.redactor.value(req.preview),
      rememberable: req.decision.rememberable,
      status: 'pending',
      createdAt: isoAt(this.clock.now()),
      ...(req.decision.approvalRule && { rule: req.decision.approvalRule }),
      ...(req.owner && { owner: actorOf(req.owner) }),
      votes: [],
    };
    const view = publicView(approval);
    return {
      approval: view,
      persist: async (tx) => {
        await tx.approvals.insert(approval);
        const data = { approvalId: approval.id, tool: approval.tool, reason: approval.reason, preview: approval.preview };
        await this.trace.append(approval.taskId, 'approval.requested', data, approval.stepId, tx.trace);
      },
      announce: () => this.emit('approval.requested', view),
    };
  }

  async get(id: string): Promise<Approval | undefined> {
    const a = await this.store.approvals.get(id);
    return a && publicView(a);
  }

  async list(filter: Parameters<Store['approvals']['list']>[0]): Promise<Approval[]> {
    return (await this.store.approvals.list(filter)).map(publicView);
  }

  /**
   * Records one person's decision. Under a rule that needs several approvers the approval waits
   * until enough different people agreed (one denial ends it); the owner may not approve when the
   * rule says `notOwner`. A refusal is traced and decides nothing. Remembered approvals become
   * grants the policy gate honours.
   */
  async decide(id: string, d: ApprovalDecision, by: string, caller: Caller = LOCAL_CALLER): Promise<Approval> {
    const approval = await this.store.approvals.get(id);
    if (!approval) throw new AgentDeskError('not_found', `no approval ${id}`);
    if (approval.status !== 'pending') {
      throw new AgentDeskError('conflict', `approval ${id} is already ${approval.status}`, { status: approval.status });
    }
    const rule = approval.rule ?? DEFAULT_APPROVAL_RULE;
    const refusal = decideRefusal(caller, rule) ?? (d.decision === 'approve' ? approveRefusal(caller, rule, approval.owner) : undefined);
    if (refusal) await this.refuse(approval, caller, refusal, 'forbidden');
    if ((approval.votes ?? []).some((v) => v.by.subject === caller.subject)) {
      await this.refuse(approval, caller, `${caller.name} has already decided approval ${id}`, 'conflict');
    }
    assertRememberAllowed(approval.risks, d.remember);
    if (d.remember !== 'once' && rule.approvers > 1) {
      throw new AgentDeskError(
        'invalid_params',
        `approval ${id} needs ${rule.approvers} people; it can only be approved once, not remembered`,
      );
    }
    const at = isoAt(this.clock.now());
    const voter = actorOf(caller);
    const final = await this.store.transaction(async (tx) => {
      if (!(await tx.approvals.lockPending(id))) throw new AgentDeskError('conflict', `approval ${id} was decided concurrently`);
      if (!(await tx.approvals.vote(id, voter, d.decision, d.reason, at))) {
        throw new AgentDeskError('conflict', `${caller.name} has already decided approval ${id}`);
      }
      const voted = { approvalId: id, decision: d.decision, by: voter, reason: d.reason ?? null };
      await this.trace.append(approval.taskId, 'approval.voted', voted, approval.stepId, tx.trace);
      const agreed = d.decision === 'approve' ? await tx.approvals.countedApprovals(id) : 0;
      if (d.decision === 'approve' && agreed < rule.approvers) return false;
      const status = d.decision === 'approve' ? 'approved' : 'denied';
      const decidedBy = caller.signedIn ? deciders(approval, voter, d.decision) : by;
      if (
        !(await tx.approvals.decide(id, {
          status,
          remember: d.remember,
          ...(d.reason !== undefined && { reason: d.reason }),
          by: decidedBy,
          at,
        }))
      ) {
        throw new AgentDeskError('conflict', `approval ${id} was decided concurrently`);
      }
      if (status === 'approved' && d.remember !== 'once') {
        await tx.grants.add({
          id: `grt_${ulid()}`,
          tool: approval.tool,
          subject: approval.subject,
          taskId: approval.taskId,
          scope: d.remember,
          approvalId: id,
          at,
        });
      }
      const data = { approvalId: id, status, remember: d.remember, by: decidedBy, reason: d.reason ?? null };
      await this.trace.append(approval.taskId, 'approval.resolved', data, approval.stepId, tx.trace);
      return true;
    });
    const now = (await this.get(id))!;
    if (final) this.announceResolved(now);
    else this.emit('approval.updated', now);
    return now;
  }

  /** Traces a refused decision (who, why) and throws it: nothing is decided by it. */
  private async refuse(approval: StoredApproval, caller: Caller, reason: string, code: 'forbidden' | 'conflict'): Promise<never> {
    const data = { approvalId: approval.id, by: actorOf(caller), reason };
    await this.store.transaction((tx) => this.trace.append(approval.taskId, 'approval.refused', data, approval.stepId, tx.trace));
    throw new AgentDeskError(code, reason, { approvalId: approval.id });
  }

  /** A person was removed or lost the right to decide: their votes on waiting approvals stop counting. */
  async voidVotesOf(subject: string): Promise<void> {
    const at = isoAt(this.clock.now());
    const touched = await this.store.transaction((tx) => tx.approvals.voidPendingVotes(subject, at));
    for (const id of touched) {
      const approval = await this.get(id);
      if (approval) this.emit('approval.updated', approval);
    }
  }

  /** Marks a pending approval cancelled (its task was cancelled), with its `approval.resolved` trace event. */
  async cancel(id: string, by: string): Promise<void> {
    await this.store.transaction((tx) => this.cancelWithin(tx, id, by));
  }

  /** `cancel` inside a commit of the caller's (the run's, in order before its transition); announced once it landed. */
  async cancelWithin(tx: Repos, id: string, by: string): Promise<void> {
    if (!(await tx.approvals.decide(id, { status: 'cancelled', by, at: isoAt(this.clock.now()) }))) return;
    const a = await tx.approvals.get(id);
    if (!a) return;
    const data = { approvalId: id, status: 'cancelled', remember: null, by, reason: null };
    await this.trace.append(a.taskId, 'approval.resolved', data, a.stepId, tx.trace);
    tx.afterCommit(() => this.announceResolved(publicView(a)));
  }

  /** Tells this process's clients and waiting runner about a decision that has landed. */
  private announceResolved(approval: Approval): void {
    this.emit('approval.resolved', approval);
    this.wake(approval.id);
  }

  /** Resolves on an in-process decision about `id`, after `pollMs`, or when `signal` aborts. */
  async changed(id: string, pollMs: number, signal: AbortSignal): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const set = this.waiters.get(id) ?? new Set();
    set.add(wake);
    this.waiters.set(id, set);
    try {
      await Promise.race([woken, this.clock.sleep(pollMs, signal).catch(() => undefined)]);
    } finally {
      set.delete(wake);
      if (set.size === 0) this.waiters.delete(id);
    }
  }

  /** Wakes runners waiting on this approval at once (a decision another process made, heard by the store watch). */
  wake(id: string): void {
    for (const w of this.waiters.get(id) ?? []) w();
  }
}
