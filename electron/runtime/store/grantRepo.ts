import type Database from 'better-sqlite3';

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
}
