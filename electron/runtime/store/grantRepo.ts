import type { Grant } from '../../contract/index.js';
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

  async find(q: { taskId: string; tool: string; subject: string }): Promise<'task' | 'always' | undefined> {
    const row = await this.db.get<{ scope: 'task' | 'always' }>(
      `SELECT scope FROM grants WHERE tool = ? AND subject = ? AND (scope = 'always' OR task_id = ?)
       ORDER BY CASE scope WHEN 'always' THEN 0 ELSE 1 END LIMIT 1`,
      [q.tool, q.subject, q.taskId],
    );
    return row?.scope;
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
