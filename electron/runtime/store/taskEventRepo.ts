import { columnList } from './columnList.js';
import type { TaskEvent, TaskEventKind } from '../../contract/index.js';
import { numberedLog } from './sql/rowBatch.js';
import type { SqlSession } from './sql/sqlPort.js';
import { TaskLogLock } from './taskLog.js';

interface EventRow {
  task_id: string;
  seq: number;
  kind: string;
  text: string;
  at: string;
}

const EVENT_COLUMNS = columnList<EventRow>({ task_id: true, seq: true, kind: true, text: true, at: true });

const toEvent = (r: EventRow): TaskEvent => ({ taskId: r.task_id, seq: r.seq, kind: r.kind as TaskEventKind, text: r.text, at: r.at });

// The next seq is computed inside the INSERT so two processes (CLI + serve) never collide.
const eventRows = numberedLog('task_events', ['kind', 'text', 'at']);
const APPEND = `${eventRows.one} RETURNING seq`;

/** The kinds a planner reads as its inbox. */
const INBOX_KINDS: readonly TaskEventKind[] = ['user.message', 'hook.context'];

/**
 * Tasks whose inbox this process wrote to since their planner last looked: on PostgreSQL a
 * planner reads its inbox on such news, else at most every so often (see plannerState.ts).
 */
export class InboxNews {
  private readonly tasks = new Set<string>();

  mark(taskId: string): void {
    this.tasks.add(taskId);
  }

  /** True (once) when the task's inbox was written here since the last take. */
  take(taskId: string): boolean {
    return this.tasks.delete(taskId);
  }
}

/** A task's conversation as people read it: messages, model text, reasoning summaries, the answer. */
export class TaskEventRepo {
  private readonly log: TaskLogLock;

  /** `inboxWritten` is told (once the write landed) of each message or hook context appended. */
  constructor(
    private readonly db: SqlSession,
    private readonly inboxWritten: (taskId: string) => void = () => undefined,
  ) {
    this.log = new TaskLogLock(db);
  }

  /** Appends an event; returns its seq. */
  async append(taskId: string, kind: TaskEventKind, text: string, at: string): Promise<number> {
    const seq = await this.log.append(
      taskId,
      async (session) => (await session.get<{ seq: number }>(APPEND, [taskId, kind, text, at, taskId]))!.seq,
    );
    if (INBOX_KINDS.includes(kind)) this.inboxWritten(taskId);
    return seq;
  }

  /** Appends an event whose seq nobody reads (a planner's turn text): in a transaction it rides the next round trip. */
  async record(taskId: string, kind: TaskEventKind, text: string, at: string): Promise<void> {
    await this.log.append(taskId, (session) => session.deferRow(eventRows.of(taskId), [taskId, kind, text, at]));
    if (INBOX_KINDS.includes(kind)) this.inboxWritten(taskId);
  }

  /** Events after `afterSeq`, oldest first. */
  async list(taskId: string, afterSeq = 0, limit = 10_000): Promise<TaskEvent[]> {
    const sql = `SELECT ${EVENT_COLUMNS} FROM task_events WHERE task_id = ? AND seq > ? ORDER BY seq LIMIT ?`;
    return (await this.db.all<EventRow>(sql, [taskId, afterSeq, limit])).map(toEvent);
  }

  /** Events of one kind after `afterSeq` (a planner's unread user messages). */
  async ofKind(taskId: string, kind: TaskEventKind, afterSeq: number): Promise<TaskEvent[]> {
    const sql = `SELECT ${EVENT_COLUMNS} FROM task_events WHERE task_id = ? AND kind = ? AND seq > ? ORDER BY seq`;
    return (await this.db.all<EventRow>(sql, [taskId, kind, afterSeq])).map(toEvent);
  }

  /** What a model planner has not read yet after `afterSeq`: the user's messages and the context hooks added, in order. */
  async inbox(taskId: string, afterSeq: number): Promise<TaskEvent[]> {
    const sql = `SELECT ${EVENT_COLUMNS} FROM task_events WHERE task_id = ? AND kind IN ('user.message', 'hook.context') AND seq > ? ORDER BY seq`;
    return (await this.db.all<EventRow>(sql, [taskId, afterSeq])).map(toEvent);
  }
}
