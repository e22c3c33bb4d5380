import { ulid } from 'ulid';
import type { Approval, ApprovalDecision, ApprovalPreview, PolicyDecision } from '../../contract/index.js';
import { isoAt, type Clock } from '../clock.js';
import type { Emit } from '../engine/ports.js';
import { AgentDeskError } from '../errors.js';
import type { StoredApproval } from '../store/approvalRepo.js';
import type { Store } from '../store/store.js';
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

  request(req: ApprovalRequest): Approval {
    const pending = this.prepare(req);
    pending.persist();
    pending.announce();
    return pending.approval;
  }

  /**
   * An approval request in two halves, so a runner can write it in its own queue, in order with
   * its steps: `persist` (row + `approval.requested` trace event) inside the runner's commit,
   * `announce` (the event) once that commit landed.
   */
  prepare(req: ApprovalRequest): { approval: Approval; persist(): void; announce(): void } {
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
      persist: () => {
        this.store.approvals.insert(approval);
        this.trace.append(
          approval.taskId,
          'approval.requested',
          { approvalId: approval.id, tool: approval.tool, reason: approval.reason, preview: approval.preview },
          approval.stepId,
        );
      },
      announce: () => this.emit('approval.requested', view),
    };
  }

  get(id: string): Approval | undefined {
    const a = this.store.approvals.get(id);
    return a && publicView(a);
  }

  list(filter: Parameters<Store['approvals']['list']>[0]): Approval[] {
    return this.store.approvals.list(filter).map(publicView);
  }

  /** Records a decision; remembered approvals become grants the policy gate honours. */
  decide(id: string, d: ApprovalDecision, by: string): Approval {
    const approval = this.store.approvals.get(id);
    if (!approval) throw new AgentDeskError('not_found', `no approval ${id}`);
    if (approval.status !== 'pending') {
      throw new AgentDeskError('conflict', `approval ${id} is already ${approval.status}`, { status: approval.status });
    }
    assertRememberAllowed(approval.risks, d.remember);
    const at = isoAt(this.clock.now());
    const status = d.decision === 'approve' ? 'approved' : 'denied';
    this.store.transaction(() => {
      if (!this.store.approvals.decide(id, { status, remember: d.remember, ...(d.reason !== undefined && { reason: d.reason }), by, at })) {
        throw new AgentDeskError('conflict', `approval ${id} was decided concurrently`);
      }
      if (status === 'approved' && d.remember !== 'once') {
        this.store.grants.add({
          id: `grt_${ulid()}`,
          tool: approval.tool,
          subject: approval.subject,
          taskId: approval.taskId,
          scope: d.remember,
          approvalId: id,
          at,
        });
      }
      this.trace.append(
        approval.taskId,
        'approval.resolved',
        { approvalId: id, status, remember: d.remember, by, reason: d.reason ?? null },
        approval.stepId,
      );
    });
    const decided = this.get(id)!;
    this.emit('approval.resolved', decided);
    this.wake(id);
    return decided;
  }

  /** Marks a pending approval cancelled (its task was cancelled), with its `approval.resolved` trace event. */
  cancel(id: string, by: string): void {
    if (this.store.approvals.decide(id, { status: 'cancelled', by, at: isoAt(this.clock.now()) })) {
      const a = this.get(id);
      if (a) {
        const data = { approvalId: id, status: 'cancelled', remember: null, by, reason: null };
        this.trace.append(a.taskId, 'approval.resolved', data, a.stepId);
      }
      if (a) this.emit('approval.resolved', a);
      this.wake(id);
    }
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

  private wake(id: string): void {
    for (const w of this.waiters.get(id) ?? []) w();
  }
}
