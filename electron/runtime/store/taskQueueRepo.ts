import type Database from 'better-sqlite3';

/** One background-queue entry. */
export interface QueueEntry {
  seq: number;
  taskId: string;
  agentId?: string;
  serialKey?: string;
  state: 'pending' | 'running' | 'done';
  ownerPid?: number;
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
  owner_pid: number | null;
  starts: number;
  outcome: string | null;
}

const toEntry = (r: Row): QueueEntry => ({
  seq: r.seq,
  taskId: r.task_id,
  ...(r.agent_id !== null && { agentId: r.agent_id }),
  ...(r.serial_key !== null && { serialKey: r.serial_key }),
  state: r.state,
  ...(r.owner_pid !== null && { ownerPid: r.owner_pid }),
  starts: r.starts,
  ...(r.outcome !== null && { outcome: r.outcome }),
});

/** The background queue: tasks waiting for a worker slot, in order, claimed with a process lease. */
export class TaskQueueRepo {
  private readonly claimStmt: Database.Statement;
  private readonly finishStmt: Database.Statement;
  private readonly readyStmt: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.claimStmt = db.prepare(
      "UPDATE task_queue SET state = 'running', owner_pid = ?, starts = starts + 1, started_at = ? WHERE seq = ? AND state = 'pending'",
    );
    this.finishStmt = db.prepare("UPDATE task_queue SET state = 'done', outcome = ?, finished_at = ?, owner_pid = NULL WHERE seq = ?");
    // Pending entries whose serial key has nothing running and nothing pending ahead of them.
    this.readyStmt = db.prepare(
      `SELECT q.* FROM task_queue q WHERE q.state = 'pending' AND (q.serial_key IS NULL OR NOT EXISTS (
         SELECT 1 FROM task_queue r WHERE r.serial_key = q.serial_key AND (r.state = 'running' OR (r.state = 'pending' AND r.seq < q.seq))
       )) ORDER BY q.seq LIMIT ?`,
    );
  }

  /**
   * Adds a task to the queue (once: enqueueing the same task again is a no-op). Without an
   * explicit agent, the task's own agent is recorded, so its per-agent limit always applies.
   */
  enqueue(taskId: string, opts: { agentId?: string; serialKey?: string }, atIso: string): void {
    this.db
      .prepare(
        `INSERT OR IGNORE INTO task_queue (task_id, agent_id, serial_key, state, enqueued_at)
         VALUES (?, COALESCE(?, (SELECT agent FROM tasks WHERE id = ?)), ?, ?, ?)`,
      )
      .run(taskId, opts.agentId ?? null, taskId, opts.serialKey ?? null, 'pending', atIso);
  }

  /** Up to `limit` pending entries a worker may start now, oldest first. */
  ready(limit: number): QueueEntry[] {
    return (this.readyStmt.all(limit) as Row[]).map(toEntry);
  }

  /** Takes an entry for this process; false when another worker took it first. */
  claim(seq: number, pid: number, atIso: string): boolean {
    return this.claimStmt.run(pid, atIso, seq).changes > 0;
  }

  finish(seq: number, outcome: string, atIso: string): void {
    this.finishStmt.run(outcome, atIso, seq);
  }

  /** A finished entry goes back to pending (its task waited and may go on); false when it is not finished. */
  requeue(taskId: string): boolean {
    return (
      this.db.prepare("UPDATE task_queue SET state = 'pending', owner_pid = NULL WHERE task_id = ? AND state = 'done'").run(taskId)
        .changes > 0
    );
  }

  /**
   * Running entries held by processes that are gone go back to pending; at start-up (`restarted`)
   * also this process's own, from before a restart that reused its pid.
   */
  releaseOrphans(pid: number, isAlive: (pid: number) => boolean, restarted = true): number {
    const running = this.db.prepare("SELECT seq, owner_pid FROM task_queue WHERE state = 'running'").all() as {
      seq: number;
      owner_pid: number | null;
    }[];
    const orphaned = running.filter((r) => r.owner_pid === null || (r.owner_pid === pid ? restarted : !isAlive(r.owner_pid)));
    const release = this.db.prepare("UPDATE task_queue SET state = 'pending', owner_pid = NULL WHERE seq = ? AND state = 'running'");
    this.db.transaction(() => orphaned.forEach((r) => release.run(r.seq)))();
    return orphaned.length;
  }

  /** Running entries per agent (null key: no agent), across all processes. */
  runningByAgent(): Map<string | null, number> {
    const rows = this.db.prepare("SELECT agent_id, COUNT(*) AS n FROM task_queue WHERE state = 'running' GROUP BY agent_id").all() as {
      agent_id: string | null;
      n: number;
    }[];
    return new Map(rows.map((r) => [r.agent_id, r.n]));
  }

  counts(): { pending: number; running: number; done: number } {
    const rows = this.db.prepare('SELECT state, COUNT(*) AS n FROM task_queue GROUP BY state').all() as { state: string; n: number }[];
    const by = Object.fromEntries(rows.map((r) => [r.state, r.n]));
    return { pending: by.pending ?? 0, running: by.running ?? 0, done: by.done ?? 0 };
  }

  get(taskId: string): QueueEntry | undefined {
    const row = this.db.prepare('SELECT * FROM task_queue WHERE task_id = ?').get(taskId) as Row | undefined;
    return row && toEntry(row);
  }

  all(): QueueEntry[] {
    return (this.db.prepare('SELECT * FROM task_queue ORDER BY seq').all() as Row[]).map(toEntry);
  }
}
