import { columnList } from './columnList.js';
import type { SqlDatabase, SqlSession } from './sql/sqlPort.js';
import { liveOwner, newerPlannerState } from './workerRepo.js';

/** One background-queue entry. */
export interface QueueEntry {
  seq: number;
  taskId: string;
  agentId?: string;
  serialKey?: string;
  state: 'pending' | 'running' | 'done';
  /** The worker running it. */
  owner?: string;
  /** How many times a worker started it (more than 1 only after a crash took it over). */
  starts: number;
  outcome?: string;
}

interface Row {
  seq: number;
  task_id: string;
  agent_id: string | null;
  serial_key: string | null;
  state: QueueEntry['state'];
  owner: string | null;
  starts: number;
  outcome: string | null;
}

const QUEUE_COLUMNS = columnList<Row>({
  seq: true,
  task_id: true,
  agent_id: true,
  serial_key: true,
  state: true,
  owner: true,
  starts: true,
  outcome: true,
});

const toEntry = (r: Row): QueueEntry => ({
  seq: r.seq,
  taskId: r.task_id,
  ...(r.agent_id !== null && { agentId: r.agent_id }),
  ...(r.serial_key !== null && { serialKey: r.serial_key }),
  state: r.state,
  ...(r.owner !== null && { owner: r.owner }),
  starts: r.starts,
  ...(r.outcome !== null && { outcome: r.outcome }),
});

// Pending entries whose serial key has nothing running and nothing pending ahead of them, and
// whose task was saved by a planner this worker reads. The page size is written into the text, not
// bound: a prepared statement with a bound LIMIT is estimated at a tenth of the table, so
// PostgreSQL re-planned it on every fill instead of keeping its plan (pages take a few sizes).
const readyPages = new Map<number, string>();
const readyStatement = (limit: number): string => {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`not a page size: ${limit}`);
  let sql = readyPages.get(limit);
  if (sql === undefined) {
    sql = `SELECT ${QUEUE_COLUMNS} FROM task_queue q WHERE q.state = 'pending' AND (q.serial_key IS NULL OR NOT EXISTS (
    SELECT 1 FROM task_queue r WHERE r.serial_key = q.serial_key AND (r.state = 'running' OR (r.state = 'pending' AND r.seq < q.seq))
  )) AND NOT ${newerPlannerState('q.task_id')} AND q.seq > ? ORDER BY q.seq LIMIT ${limit}`;
    readyPages.set(limit, sql);
  }
  return sql;
};

/** The database itself, not one transaction on it. */
const isDatabase = (db: SqlSession): db is SqlDatabase => 'transaction' in db;

const CLAIM = "UPDATE task_queue SET state = 'running', owner = ?, starts = starts + 1, started_at = ?";

/** The background queue: tasks waiting for a worker slot, in order, claimed with a process lease. */
export class TaskQueueRepo {
  constructor(private readonly db: SqlSession) {}

  /**
   * Adds a task to the queue (once: enqueueing the same task again is a no-op). Without an
   * explicit agent, the task's own agent is recorded, so its per-agent limit always applies.
   */
  async enqueue(taskId: string, opts: { agentId?: string; serialKey?: string }, atIso: string): Promise<void> {
    await this.db.run(
      `INSERT INTO task_queue (task_id, agent_id, serial_key, state, enqueued_at)
       VALUES (?, COALESCE(?, (SELECT agent FROM tasks WHERE id = ?)), ?, ?, ?) ON CONFLICT DO NOTHING`,
      [taskId, opts.agentId ?? null, taskId, opts.serialKey ?? null, 'pending', atIso],
    );
  }

  /**
   * A task a gateway that runs no tasks would start, handed to the workers: its finished entry (a
   * run that detached to wait) goes back to pending, else it is enqueued.
   */
  async handOff(taskId: string, atIso: string): Promise<void> {
    if (!(await this.requeue(taskId))) await this.enqueue(taskId, {}, atIso);
  }

  /**
   * After many entries came at once: fresh planner statistics (PostgreSQL). A queue table the
   * server has not analyzed yet is estimated at a few rows, and `ready` then sorted the whole
   * backlog on every fill (3 ms a fill at 3,000 entries) instead of reading the first pending ones
   * in order from the index. Autovacuum analyzes too, but only about a minute later.
   */
  async refreshStatistics(): Promise<void> {
    if (this.db.dialect === 'postgres') await this.db.exec('ANALYZE task_queue');
  }

  /**
   * Up to `limit` pending entries a worker reading planner states up to `plannerVersion` may start
   * now, oldest first; `after` pages on from the last entry of a previous page.
   */
  async ready(limit: number, plannerVersion: number, after = 0): Promise<QueueEntry[]> {
    return (await this.db.all<Row>(readyStatement(limit), [plannerVersion, after])).map(toEntry);
  }

  /**
   * Takes an entry for worker `owner`; false when another worker took it first. On PostgreSQL an
   * entry another worker is claiming this instant is skipped, not waited for (`SKIP LOCKED`).
   */
  async claim(seq: number, owner: string, atIso: string): Promise<boolean> {
    return (await this.db.run(`${CLAIM} WHERE ${this.entry()} AND state = 'pending'`, [owner, atIso, seq])).changes > 0;
  }

  /**
   * `claim` for an entry of an agent that may run at most `limit` tasks at once, across every
   * worker: false when the agent's slots are full. On SQLite the one UPDATE holds the write lock
   * from its start, so its count is the latest. On PostgreSQL claims of one agent take turns on
   * an advisory lock held to the commit, in a transaction of their own, so the count each reads
   * includes the claims committed before it (a count in the UPDATE alone reads the snapshot its
   * statement started with, before any lock was granted).
   */
  async claimWithinLimit(seq: number, owner: string, atIso: string, agentId: string, limit: number): Promise<boolean> {
    if (this.db.dialect === 'postgres') {
      if (isDatabase(this.db))
        return this.db.transaction((tx) => new TaskQueueRepo(tx).claimWithinLimit(seq, owner, atIso, agentId, limit));
      await this.db.get('SELECT pg_advisory_xact_lock(hashtextextended(?, 11))', [`agent-slots:${agentId}`]);
    }
    const room = "(SELECT COUNT(*) FROM task_queue WHERE agent_id = ? AND state = 'running') < ?";
    const sql = `${CLAIM} WHERE ${this.entry()} AND state = 'pending' AND ${room}`;
    return (await this.db.run(sql, [owner, atIso, seq, agentId, limit])).changes > 0;
  }

  /** The entry `seq` (a parameter); on PostgreSQL one another worker is claiming this instant is skipped, not waited for. */
  private entry(): string {
    return this.db.dialect === 'postgres' ? 'seq = (SELECT seq FROM task_queue WHERE seq = ? FOR UPDATE SKIP LOCKED)' : 'seq = ?';
  }

  /**
   * Ends the entry `owner` holds: nothing once it was handed back (that worker's lease was taken,
   * and another worker may be running it now).
   */
  async finish(seq: number, owner: string, outcome: string, atIso: string): Promise<void> {
    await this.db.defer("UPDATE task_queue SET state = 'done', outcome = ?, finished_at = ?, owner = NULL WHERE seq = ? AND owner = ?", [
      outcome,
      atIso,
      seq,
      owner,
    ]);
  }

  /** A finished entry goes back to pending (its task waited and may go on); false when it is not finished. */
  async requeue(taskId: string): Promise<boolean> {
    const sql = "UPDATE task_queue SET state = 'pending', owner = NULL WHERE task_id = ? AND state = 'done'";
    return (await this.db.run(sql, [taskId])).changes > 0;
  }

  /** Running entries held by workers that are no longer live (`fresh`: heartbeats at or after it are live) go back to pending. */
  async releaseOrphans(me: string, fresh: string): Promise<number> {
    const sql = `UPDATE task_queue SET state = 'pending', owner = NULL WHERE state = 'running'
      AND (owner IS NULL OR (owner != ? AND NOT ${liveOwner('task_queue.owner')}))`;
    return (await this.db.run(sql, [me, fresh])).changes;
  }

  /** Running entries per agent (null key: no agent), across all processes. */
  async runningByAgent(): Promise<Map<string | null, number>> {
    const rows = await this.db.all<{ agent_id: string | null; n: number }>(
      "SELECT agent_id, COUNT(*) AS n FROM task_queue WHERE state = 'running' GROUP BY agent_id",
    );
    return new Map(rows.map((r) => [r.agent_id, Number(r.n)]));
  }

  async counts(): Promise<{ pending: number; running: number; done: number }> {
    const rows = await this.db.all<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM task_queue GROUP BY state');
    const by = Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
    return { pending: by.pending ?? 0, running: by.running ?? 0, done: by.done ?? 0 };
  }

  async get(taskId: string): Promise<QueueEntry | undefined> {
    const row = await this.db.get<Row>(`SELECT ${QUEUE_COLUMNS} FROM task_queue WHERE task_id = ?`, [taskId]);
    return row && toEntry(row);
  }

  async all(): Promise<QueueEntry[]> {
    return (await this.db.all<Row>(`SELECT ${QUEUE_COLUMNS} FROM task_queue ORDER BY seq`)).map(toEntry);
  }
}
