import type Database from 'better-sqlite3';
import type { Grant } from '../../contract/index.js';

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
  private readonly findStmt: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.findStmt = db.prepare(
      `SELECT scope FROM grants WHERE tool = ? AND subject = ? AND (scope = 'always' OR task_id = ?)
       ORDER BY CASE scope WHEN 'always' THEN 0 ELSE 1 END LIMIT 1`,
    );
  }

  add(g: { id: string; tool: string; subject: string; taskId: string; scope: 'task' | 'always'; approvalId: string; at: string }): void {
    this.db
      .prepare('INSERT INTO grants (id, tool, subject, task_id, scope, approval_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(g.id, g.tool, g.subject, g.scope === 'task' ? g.taskId : null, g.scope, g.approvalId, g.at);
  }

  find(q: { taskId: string; tool: string; subject: string }): 'task' | 'always' | undefined {
    const row = this.findStmt.get(q.tool, q.subject, q.taskId) as { scope: 'task' | 'always' } | undefined;
    return row?.scope;
  }

  /** Remembered approvals, newest first; `taskId` narrows to that task's own `task` grants. */
  list(q: { scope?: 'task' | 'always'; taskId?: string } = {}): Grant[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM grants WHERE (@scope IS NULL OR scope = @scope) AND (@taskId IS NULL OR task_id = @taskId)
         ORDER BY created_at DESC, id DESC`,
      )
      .all({ scope: q.scope ?? null, taskId: q.taskId ?? null }) as GrantRow[];
    return rows.map(toGrant);
  }

  /** Deletes one grant; returns what it was, or undefined when there is none with that id. */
  revoke(id: string): Grant | undefined {
    const row = this.db.prepare('SELECT * FROM grants WHERE id = ?').get(id) as GrantRow | undefined;
    if (!row) return undefined;
    this.db.prepare('DELETE FROM grants WHERE id = ?').run(id);
    return toGrant(row);
  }
}
