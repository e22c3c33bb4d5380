import type { Actor, Approval, ApprovalRule, ApprovalStatus, ApprovalVote, Remember } from '../../contract/index.js';
import type { SqlSession } from './sql/sqlPort.js';

interface ApprovalRow {
  id: string;
  task_id: string;
  step_id: string;
  tool: string;
  subject: string;
  args: string;
  risks: string;
  reason: string;
  preview: string;
  rememberable: number;
  status: string;
  remember: string | null;
  decision_reason: string | null;
  decided_by: string | null;
  created_at: string;
  decided_at: string | null;
  rule: string | null;
  owner_subject: string | null;
  owner_name: string | null;
}

interface VoteRow {
  approval_id: string;
  subject: string;
  name: string;
  decision: string;
  reason: string | null;
  at: string;
  voided_at: string | null;
}

const toVote = (v: VoteRow): ApprovalVote => ({
  by: { subject: v.subject, name: v.name },
  decision: v.decision as ApprovalVote['decision'],
  ...(v.reason !== null && { reason: v.reason }),
  at: v.at,
  counted: v.voided_at === null,
});

/** An approval with the policy subject it was asked for (used to remember the decision). */
export type StoredApproval = Approval & { subject: string };

function toApproval(r: ApprovalRow, votes: ApprovalVote[] = []): StoredApproval {
  return {
    id: r.id,
    taskId: r.task_id,
    stepId: r.step_id,
    tool: r.tool,
    subject: r.subject,
    args: JSON.parse(r.args),
    risks: JSON.parse(r.risks),
    reason: r.reason,
    preview: JSON.parse(r.preview),
    rememberable: r.rememberable === 1,
    status: r.status as ApprovalStatus,
    ...(r.remember !== null && { remember: r.remember as Remember }),
    ...(r.decision_reason !== null && { decisionReason: r.decision_reason }),
    ...(r.decided_by !== null && { decidedBy: r.decided_by }),
    createdAt: r.created_at,
    ...(r.decided_at !== null && { decidedAt: r.decided_at }),
    ...(r.rule !== null && { rule: JSON.parse(r.rule) as ApprovalRule }),
    ...(r.owner_subject !== null && { owner: { subject: r.owner_subject, name: r.owner_name ?? r.owner_subject } }),
    votes,
  };
}

/** Approvals table: pending requests and the decisions taken on them. */
export class ApprovalRepo {
  constructor(private readonly db: SqlSession) {}

  async insert(a: StoredApproval): Promise<void> {
    await this.db.run(
      `INSERT INTO approvals (id, task_id, step_id, tool, subject, args, risks, reason, preview, rememberable, status, created_at, rule, owner_subject, owner_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        a.id,
        a.taskId,
        a.stepId,
        a.tool,
        a.subject,
        JSON.stringify(a.args ?? null),
        JSON.stringify(a.risks),
        a.reason,
        JSON.stringify(a.preview),
        a.rememberable ? 1 : 0,
        a.status,
        a.createdAt,
        a.rule ? JSON.stringify(a.rule) : null,
        a.owner?.subject ?? null,
        a.owner?.name ?? null,
      ],
    );
  }

  async get(id: string): Promise<StoredApproval | undefined> {
    const row = await this.db.get<ApprovalRow>('SELECT * FROM approvals WHERE id = ?', [id]);
    return row && toApproval(row, (await this.votesOf([id])).get(id));
  }

  /** Each approval's votes, oldest first. */
  private async votesOf(ids: readonly string[]): Promise<Map<string, ApprovalVote[]>> {
    const byApproval = new Map<string, ApprovalVote[]>();
    if (ids.length === 0) return byApproval;
    const rows = await this.db.all<VoteRow>(
      `SELECT * FROM approval_votes WHERE approval_id IN (${ids.map(() => '?').join(',')}) ORDER BY at, subject`,
      [...ids],
    );
    for (const row of rows) byApproval.set(row.approval_id, [...(byApproval.get(row.approval_id) ?? []), toVote(row)]);
    return byApproval;
  }

  /**
   * Records one person's vote; false when they already voted on it (the key keeps it to one,
   * even from two processes at once).
   */
  async vote(id: string, by: Actor, decision: ApprovalVote['decision'], reason: string | undefined, at: string): Promise<boolean> {
    const info = await this.db.run(
      `INSERT INTO approval_votes (approval_id, subject, name, decision, reason, at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (approval_id, subject) DO NOTHING`,
      [id, by.subject, by.name, decision, reason ?? null, at],
    );
    return info.changes === 1;
  }

  /**
   * Takes the approval's row lock (PostgreSQL) before counting votes, so two approvers agreeing
   * at once cannot each count only themselves; false when it is no longer pending.
   */
  async lockPending(id: string): Promise<boolean> {
    const info = await this.db.run(`UPDATE approvals SET status = status WHERE id = ? AND status = 'pending'`, [id]);
    return info.changes === 1;
  }

  /** How many approve and still count (votes of people removed since are left out). */
  async countedApprovals(id: string): Promise<number> {
    const row = await this.db.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM approval_votes WHERE approval_id = ? AND decision = 'approve' AND voided_at IS NULL`,
      [id],
    );
    return Number(row?.n ?? 0);
  }

  /** A removed person's votes on approvals still waiting stop counting; returns the approvals touched. */
  async voidPendingVotes(subject: string, at: string): Promise<string[]> {
    const rows = await this.db.all<{ approval_id: string }>(
      `SELECT v.approval_id FROM approval_votes v JOIN approvals a ON a.id = v.approval_id
       WHERE v.subject = ? AND v.voided_at IS NULL AND a.status = 'pending'`,
      [subject],
    );
    for (const { approval_id } of rows) {
      await this.db.run('UPDATE approval_votes SET voided_at = ? WHERE approval_id = ? AND subject = ?', [at, approval_id, subject]);
    }
    return rows.map((r) => r.approval_id);
  }

  async list(filter: { status?: ApprovalStatus; taskId?: string }): Promise<StoredApproval[]> {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.status) (where.push('status = ?'), args.push(filter.status));
    if (filter.taskId) (where.push('task_id = ?'), args.push(filter.taskId));
    const sql = `SELECT * FROM approvals ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY CASE status WHEN 'pending' THEN 0 ELSE 1 END, created_at DESC LIMIT 500`;
    const rows = await this.db.all<ApprovalRow>(sql, args);
    const votes = await this.votesOf(rows.map((r) => r.id));
    return rows.map((r) => toApproval(r, votes.get(r.id)));
  }

  /** Approvals asked, voted on or decided at or after `since` (ISO time), with their counted votes: what a store watch publishes. */
  async changedSince(since: string): Promise<{ id: string; status: string; votes: number | string }[]> {
    return this.db.all(
      `SELECT a.id, a.status, (SELECT COUNT(*) FROM approval_votes v WHERE v.approval_id = a.id AND v.voided_at IS NULL) AS votes
       FROM approvals a WHERE a.created_at >= ? OR a.decided_at >= ?
       OR a.id IN (SELECT approval_id FROM approval_votes WHERE at >= ? OR voided_at >= ?)`,
      [since, since, since, since],
    );
  }

  /** Records a decision only if the approval is still pending; returns whether it did. */
  async decide(
    id: string,
    d: { status: 'approved' | 'denied' | 'cancelled'; remember?: Remember; reason?: string; by: string; at: string },
  ): Promise<boolean> {
    const info = await this.db.run(
      `UPDATE approvals SET status = ?, remember = ?, decision_reason = ?, decided_by = ?, decided_at = ?
       WHERE id = ? AND status = 'pending'`,
      [d.status, d.remember ?? null, d.reason ?? null, d.by, d.at, id],
    );
    return info.changes === 1;
  }
}
