import type Database from 'better-sqlite3';
import type { TraceEvent, TraceEventType } from '../../contract/index.js';

interface TraceRow {
  task_id: string;
  seq: number;
  ts: string;
  type: string;
  step_id: string | null;
  data: string;
}

/** The append-only trace: per task, events numbered 1, 2, 3… in the order they happened. */
export class TraceRepo {
  private readonly appendStmt: Database.Statement;
  private readonly pageStmt: Database.Statement;
  private readonly lastStmt: Database.Statement;

  constructor(db: Database.Database) {
    // The next seq is computed inside the INSERT so concurrent writers (CLI + serve) never collide.
    this.appendStmt = db.prepare(
      `INSERT INTO trace_events (task_id, seq, ts, type, step_id, data)
       SELECT @taskId, COALESCE(MAX(seq), 0) + 1, @ts, @type, @stepId, @data FROM trace_events WHERE task_id = @taskId
       RETURNING seq`,
    );
    this.lastStmt = db.prepare('SELECT * FROM trace_events WHERE task_id = ? AND type = ? ORDER BY seq DESC LIMIT 1');
    this.pageStmt = db.prepare('SELECT * FROM trace_events WHERE task_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  }

  /** Appends an already-redacted event; returns its seq. */
  append(taskId: string, type: TraceEventType, data: Record<string, unknown>, ts: string, stepId?: string): number {
    const row = this.appendStmt.get({ taskId, ts, type, stepId: stepId ?? null, data: JSON.stringify(data) }) as {
      seq: number;
    };
    return row.seq;
  }

  /** The most recent event of one type, if any. */
  last(taskId: string, type: TraceEventType): TraceEvent | undefined {
    const row = this.lastStmt.get(taskId, type) as TraceRow | undefined;
    return row && { taskId: row.task_id, seq: row.seq, ts: row.ts, type: row.type as TraceEventType, data: JSON.parse(row.data) };
  }

  page(taskId: string, afterSeq: number, limit: number): TraceEvent[] {
    return (this.pageStmt.all(taskId, afterSeq, limit) as TraceRow[]).map((r) => ({
      taskId: r.task_id,
      seq: r.seq,
      ts: r.ts,
      type: r.type as TraceEventType,
      ...(r.step_id !== null && { stepId: r.step_id }),
      data: JSON.parse(r.data),
    }));
  }
}
