import { columnList } from './columnList.js';
import type { TraceEvent, TraceEventType } from '../../contract/index.js';
import { numberedLog } from './sql/rowBatch.js';
import type { SqlSession } from './sql/sqlPort.js';
import { TaskLogLock } from './taskLog.js';

interface TraceRow {
  task_id: string;
  seq: number;
  ts: string;
  type: string;
  step_id: string | null;
  data: string;
}

const TRACE_COLUMNS = columnList<TraceRow>({ task_id: true, seq: true, ts: true, type: true, step_id: true, data: true });

const toEvent = (r: TraceRow): TraceEvent => ({
  taskId: r.task_id,
  seq: r.seq,
  ts: r.ts,
  type: r.type as TraceEventType,
  ...(r.step_id !== null && { stepId: r.step_id }),
  data: JSON.parse(r.data),
});

// The next seq is computed inside the INSERT so concurrent writers (CLI + serve) never collide.
const traceRows = numberedLog('trace_events', ['ts', 'type', 'step_id', 'data']);
const APPEND = `${traceRows.one} RETURNING seq`;

/** The append-only trace: per task, events numbered 1, 2, 3… in the order they happened. */
export class TraceRepo {
  private readonly log: TaskLogLock;

  constructor(private readonly db: SqlSession) {
    this.log = new TaskLogLock(db);
  }

  /** Appends an already-redacted event; returns its seq. */
  async append(taskId: string, type: TraceEventType, data: Record<string, unknown>, ts: string, stepId?: string): Promise<number> {
    const values = [taskId, ts, type, stepId ?? null, JSON.stringify(data), taskId];
    return this.log.append(taskId, async (session) => (await session.get<{ seq: number }>(APPEND, values))!.seq);
  }

  /** Appends an already-redacted event whose seq nobody reads: in a transaction it rides the next round trip. */
  async record(taskId: string, type: TraceEventType, data: Record<string, unknown>, ts: string, stepId?: string): Promise<void> {
    const row = [taskId, ts, type, stepId ?? null, JSON.stringify(data)];
    await this.log.append(taskId, (session) => session.deferRow(traceRows.of(taskId), row));
  }

  /** The most recent event of one type, if any. */
  async last(taskId: string, type: TraceEventType): Promise<TraceEvent | undefined> {
    const row = await this.db.get<TraceRow>(
      `SELECT ${TRACE_COLUMNS} FROM trace_events WHERE task_id = ? AND type = ? ORDER BY seq DESC LIMIT 1`,
      [taskId, type],
    );
    if (!row) return undefined;
    const { stepId: _stepId, ...event } = toEvent(row);
    return event;
  }

  async page(taskId: string, afterSeq: number, limit: number): Promise<TraceEvent[]> {
    const rows = await this.db.all<TraceRow>(
      `SELECT ${TRACE_COLUMNS} FROM trace_events WHERE task_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
      [taskId, afterSeq, limit],
    );
    return rows.map(toEvent);
  }
}
