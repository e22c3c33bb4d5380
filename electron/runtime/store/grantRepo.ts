import type { Grant, Role } from '../../contract/index.js';
import type { SqlSession } from './sql/sqlPort.js';

interface GrantRow {
  id: string;
  tool: string;
  subject: string;
  task_id: string | null;
  scope: 'task' | 'always';
  approval_id: string;
  created_at: string;
}

const toGrant = (r: GrantRow): Grant => ({
  id: r.id,
  tool: r.tool,
  subject: r.subject,
  scope: r.scope,
  ...(r.task_id !== null && { taskId: r.task_id }),
  approvalId: r.approval_id,
  createdAt: r.created_at,
});

/** A grant matching a call, with what the gate needs to know whether it still holds. */
export interface GrantCandidate {
  scope: 'task' | 'always';
  /** Who remembered it (absent on grants from before people); `roles` absent: not a signed-in person (the local operator). */
  granter?: { subject: string; roles?: Role[]; removed: boolean };
  /** The subject of the owner of the task the call belongs to. */
  taskOwner?: string;
}

/** Remembered approvals: `task` grants hold within one task, `always` grants across tasks. */
export class GrantRepo {
  constructor(private readonly db: SqlSession) {}

  async add(g: {
    id: string;
    tool: string;
    subject: string;
    taskId: string;
    scope: 'task' | 'always';
    approvalId: string;
    at: string;
  }): Promise<void> {
    await this.db.run('INSERT INTO grants (id, tool, subject, task_id, scope, approval_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      g.id,
      g.tool,
      g.subject,
      g.scope === 'task' ? g.taskId : null,
      g.scope,
      g.approvalId,
      g.at,
    ]);
  }

  /**
   * The grants that match a call, `always` first, each with who granted it (the person whose
   * approval remembered it, as they are now) and the task's owner: the gate keeps only those
   * the granter may still decide for this task.
   */
  async find(q: { taskId: string; tool: string; subject: string }): Promise<GrantCandidate[]> {
    const rows = await this.db.all<{
      scope: 'task' | 'always';
      granter: string | null;
      roles: string | null;
      disabled_at: string | null;
      owner: string | null;
    }>(
      `SELECT g.scope, v.subject AS granter, p.roles, p.disabled_at, (SELECT owner_subject FROM tasks WHERE id = ?) AS owner
       FROM grants g
       LEFT JOIN approval_votes v ON v.approval_id = g.approval_id AND v.decision = 'approve'
       LEFT JOIN people p ON p.subject = v.subject
       WHERE g.tool = ? AND g.subject = ? AND (g.scope = 'always' OR g.task_id = ?)
       ORDER BY CASE g.scope WHEN 'always' THEN 0 ELSE 1 END`,
      [q.taskId, q.tool, q.subject, q.taskId],
    );
    return rows.map((r) => ({
      scope: r.scope,
      ...(r.granter !== null && {
        granter: { subject: r.granter, ...(r.roles !== null && { roles: JSON.parse(r.roles) as Role[] }), removed: r.disabled_at !== null },
      }),
      ...(r.owner !== null && { taskOwner: r.owner }),
    }));
  }

  /** Remembered approvals, newest first; `taskId` narrows to that task's own `task` grants. */
  async list(q: { scope?: 'task' | 'always'; taskId?: string } = {}): Promise<Grant[]> {
    const where: string[] = [];
    const args: string[] = [];
    if (q.scope) (where.push('scope = ?'), args.push(q.scope));
    if (q.taskId) (where.push('task_id = ?'), args.push(q.taskId));
    const sql = `SELECT * FROM grants ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC`;
    return (await this.db.all<GrantRow>(sql, args)).map(toGrant);
  }

  /** Deletes one grant; returns what it was, or undefined when there is none with that id. */
  async revoke(id: string): Promise<Grant | undefined> {
    const row = await this.db.get<GrantRow>('DELETE FROM grants WHERE id = ? RETURNING *', [id]);
    return row && toGrant(row);
  }
}
