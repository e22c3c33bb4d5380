import type { SqlSession } from './sql/sqlPort.js';

/**
 * A task's numbered logs (trace events, task events, planner turns) take the next number inside
 * the INSERT (`MAX(seq) + 1`). On SQLite the write transaction holds the file, so two writers never
 * pick the same number; on PostgreSQL two transactions would, so the second would fail on the
 * key. There a writer first takes the task's log lock (an advisory lock held to the end of its
 * transaction): once per task and transaction, and a statement outside a transaction gets one of
 * its own.
 */
export class TaskLogLock {
  /** Tasks whose lock this session's transaction already holds. */
  private readonly held = new Set<string>();

  constructor(private readonly db: SqlSession) {}

  /** Runs `append` with the task's log to itself (at once on SQLite). */
  async append<T>(taskId: string, append: (session: SqlSession) => Promise<T>): Promise<T> {
    if (this.db.dialect !== 'postgres') return append(this.db);
    const database = this.db as SqlSession & { transaction?: <R>(fn: (tx: SqlSession) => Promise<R>) => Promise<R> };
    if (database.transaction) {
      return database.transaction(async (tx) => {
        await lockTaskLog(tx, taskId);
        return append(tx);
      });
    }
    if (!this.held.has(taskId)) {
      await lockTaskLog(this.db, taskId);
      this.held.add(taskId);
    }
    return append(this.db);
  }
}

// Nobody reads the lock's result: it may ride with the writes it protects (one round trip).
function lockTaskLog(session: SqlSession, taskId: string): Promise<unknown> {
  return session.defer('SELECT pg_advisory_xact_lock(hashtextextended(?, 7))', [`task-log:${taskId}`]);
}
