import type Database from 'better-sqlite3';
import type { TaskEvent, TaskEventKind } from '../../contract/index.js';

interface EventRow {
  task_id: string;
  seq: number;
  kind: string;
  text: string;
  at: string;
}

const toEvent = (r: EventRow): TaskEvent => ({ taskId: r.task_id, seq: r.seq, kind: r.kind as TaskEventKind, text: r.text, at: r.at });

/** A task's conversation as people read it: messages, model text, reasoning summaries, the answer. */
export class TaskEventRepo {
  private readonly appendStmt: Database.Statement;
  private readonly listStmt: Database.Statement;
  private readonly kindStmt: Database.Statement;
  private readonly inboxStmt: Database.Statement;

  constructor(db: Database.Database) {
    // The next seq is computed inside the INSERT so two processes (CLI + serve) never collide.
    this.appendStmt = db.prepare(
      `INSERT INTO task_events (task_id, seq, kind, text, at)
       SELECT @taskId, COALESCE(MAX(seq), 0) + 1, @kind, @text, @at FROM task_events WHERE task_id = @taskId
       RETURNING seq`,
    );
    this.listStmt = db.prepare('SELECT * FROM task_events WHERE task_id = ? AND seq > ? ORDER BY seq LIMIT ?');
    this.kindStmt = db.prepare('SELECT * FROM task_events WHERE task_id = ? AND kind = ? AND seq > ? ORDER BY seq');
    this.inboxStmt = db.prepare(
      "SELECT * FROM task_events WHERE task_id = ? AND kind IN ('user.message', 'hook.context') AND seq > ? ORDER BY seq",
    );
  }

  /** Appends an event; returns its seq. */
  append(taskId: string, kind: TaskEventKind, text: string, at: string): number {
    return (this.appendStmt.get({ taskId, kind, text, at }) as { seq: number }).seq;
  }

  /** Events after `afterSeq`, oldest first. */
  list(taskId: string, afterSeq = 0, limit = 10_000): TaskEvent[] {
    return (this.listStmt.all(taskId, afterSeq, limit) as EventRow[]).map(toEvent);
  }

  /** Events of one kind after `afterSeq` (a planner's unread user messages). */
  ofKind(taskId: string, kind: TaskEventKind, afterSeq: number): TaskEvent[] {
    return (this.kindStmt.all(taskId, kind, afterSeq) as EventRow[]).map(toEvent);
  }

  /** What a model planner has not read yet after `afterSeq`: the user's messages and the context hooks added, in order. */
  inbox(taskId: string, afterSeq: number): TaskEvent[] {
    return (this.inboxStmt.all(taskId, afterSeq) as EventRow[]).map(toEvent);
  }
}
