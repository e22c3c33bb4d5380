import { ulid } from 'ulid';
import type { Approval, ApprovalDecision, ApprovalPreview, PolicyDecision } from '../../contract/index.js';
import { isoAt, type Clock } from '../clock.js';
import type { Emit } from '../engine/ports.js';
import { AgentDeskError } from '../errors.js';
import type { StoredApproval } from '../store/approvalRepo.js';
import type { Repos, Store } from '../store/store.js';
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
}

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

  /** Records a decision; remembered approvals become grants the policy gate honours. */
  async decide(id: string, d: ApprovalDecision, by: string): Promise<Approval> {
    const approval = await this.store.approvals.get(id);
    if (!approval) throw new AgentDeskError('not_found', `no approval ${id}`);
    if (approval.status !== 'pending') {
      throw new AgentDeskError('conflict', `approval ${id} is already ${approval.status}`, { status: approval.status });
    }
    assertRememberAllowed(approval.risks, d.remember);
    const at = isoAt(this.clock.now());
    const status = d.decision === 'approve' ? 'approved' : 'denied';
    await this.store.transaction(async (tx) => {
      if (!(await tx.approvals.decide(id, { status, remember: d.remember, ...(d.reason !== undefined && { reason: d.reason }), by, at }))) {
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
      const data = { approvalId: id, status, remember: d.remember, by, reason: d.reason ?? null };
      await this.trace.append(approval.taskId, 'approval.resolved', data, approval.stepId, tx.trace);
    });
    const decided = (await this.get(id))!;
    this.announceResolved(decided);
    return decided;
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
