import type { Approval, ApprovalStatus, Remember } from '../../contract/index.js';
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
}

/** An approval with the policy subject it was asked for (used to remember the decision). */
export type StoredApproval = Approval & { subject: string };

function toApproval(r: ApprovalRow): StoredApproval {
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
  };
}

/** Approvals table: pending requests and the decisions taken on them. */
export class ApprovalRepo {
  constructor(private readonly db: SqlSession) {}

  async insert(a: StoredApproval): Promise<void> {
    await this.db.run(
      `INSERT INTO approvals (id, task_id, step_id, tool, subject, args, risks, reason, preview, rememberable, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      ],
    );
  }

  async get(id: string): Promise<StoredApproval | undefined> {
    const row = await this.db.get<ApprovalRow>('SELECT * FROM approvals WHERE id = ?', [id]);
    return row && toApproval(row);
  }

  async list(filter: { status?: ApprovalStatus; taskId?: string }): Promise<StoredApproval[]> {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.status) (where.push('status = ?'), args.push(filter.status));
    if (filter.taskId) (where.push('task_id = ?'), args.push(filter.taskId));
    const sql = `SELECT * FROM approvals ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY CASE status WHEN 'pending' THEN 0 ELSE 1 END, created_at DESC LIMIT 500`;
    return (await this.db.all<ApprovalRow>(sql, args)).map(toApproval);
  }

  /** Approvals asked or decided at or after `since` (ISO time): what a store watch publishes. */
  async changedSince(since: string): Promise<{ id: string; status: string }[]> {
    return this.db.all('SELECT id, status FROM approvals WHERE created_at >= ? OR decided_at >= ?', [since, since]);
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
