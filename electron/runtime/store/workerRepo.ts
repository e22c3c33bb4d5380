import type { SqlSession } from './sql/sqlPort.js';

/** A process that runs tasks, as the store knows it. */
export interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  plannerVersion: number;
  startedAt: string;
  heartbeatAt: string;
}

/**
 * SQL true when `ownerColumn` names a live worker: one whose heartbeat is at or after the bound
 * time. Task and queue claims use it inside their UPDATE, so the check and the take are one
 * statement (on PostgreSQL the row lock re-checks it against a concurrent claim).
 */
export const liveOwner = (ownerColumn: string): string =>
  `EXISTS (SELECT 1 FROM workers w WHERE w.id = ${ownerColumn} AND w.heartbeat_at >= ?)`;

/**
 * SQL true when the task in `taskColumn` holds a planner state newer than the bound version: an
 * older worker leaves such a task to one that reads it (during an upgrade).
 */
export const newerPlannerState = (taskColumn: string): string =>
  `EXISTS (SELECT 1 FROM planner_states p WHERE p.task_id = ${taskColumn} AND p.version > ?)`;

/** The workers table: one row per process that may own task runs and queue entries. */
export class WorkerRepo {
  constructor(private readonly db: SqlSession) {}

  async register(worker: WorkerRow): Promise<void> {
    await this.db.run('INSERT INTO workers (id, host, pid, planner_version, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)', [
      worker.id,
      worker.host,
      worker.pid,
      worker.plannerVersion,
      worker.startedAt,
      worker.heartbeatAt,
    ]);
  }

  /** Renews a heartbeat; false when the row is gone (another worker reaped it as stale: the leases are lost). */
  async heartbeat(id: string, at: string): Promise<boolean> {
    return (await this.db.run('UPDATE workers SET heartbeat_at = ? WHERE id = ?', [at, id])).changes > 0;
  }

  async remove(id: string): Promise<void> {
    await this.db.run('DELETE FROM workers WHERE id = ?', [id]);
  }

  /** Other workers registered from this host (their pids can be asked directly). */
  async onHost(host: string, except: string): Promise<{ id: string; pid: number }[]> {
    const rows = await this.db.all<{ id: string; pid: number }>('SELECT id, pid FROM workers WHERE host = ? AND id != ?', [host, except]);
    return rows.map((r) => ({ id: r.id, pid: Number(r.pid) }));
  }

  /** Drops workers whose heartbeat is older than `before`: they hold nothing any more. */
  async removeStale(before: string): Promise<number> {
    return (await this.db.run('DELETE FROM workers WHERE heartbeat_at < ?', [before])).changes;
  }

  async get(id: string): Promise<WorkerRow | undefined> {
    const r = await this.db.get<{
      id: string;
      host: string;
      pid: number;
      planner_version: number;
      started_at: string;
      heartbeat_at: string;
    }>('SELECT * FROM workers WHERE id = ?', [id]);
    return (
      r && {
        id: r.id,
        host: r.host,
        pid: Number(r.pid),
        plannerVersion: Number(r.planner_version),
        startedAt: r.started_at,
        heartbeatAt: r.heartbeat_at,
      }
    );
  }
}
