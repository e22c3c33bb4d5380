import type { TraceEvent, TraceEventType } from '../../contract/index.js';
import { isoAt, type Clock } from '../clock.js';
import type { TraceRepo } from '../store/traceRepo.js';
import type { Redactor } from './redactor.js';

/** Appends trace events in order, redacting known secrets before they reach the database. */
export class TraceLog {
  constructor(
    private readonly repo: TraceRepo,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
  ) {}

  /**
   * Appends an event. `into` is the trace repository of a transaction the event belongs to (it
   * lands with it, or not at all, riding that transaction's next round trip on PostgreSQL);
   * without it the event commits on its own.
   */
  append(taskId: string, type: TraceEventType, data: Record<string, unknown>, stepId?: string, into: TraceRepo = this.repo): Promise<void> {
    return into.record(taskId, type, this.redactor.value(data), isoAt(this.clock.now()), stepId);
  }

  /** The most recent event of one type. */
  last(taskId: string, type: TraceEventType): Promise<TraceEvent | undefined> {
    return this.repo.last(taskId, type);
  }

  /** A page of events after `afterSeq`; `nextSeq` is set when more may follow. */
  async page(taskId: string, afterSeq: number, limit: number): Promise<{ events: TraceEvent[]; nextSeq?: number }> {
    const events = await this.repo.page(taskId, afterSeq, limit);
    const last = events.at(-1);
    return events.length === limit && last ? { events, nextSeq: last.seq } : { events };
  }
}
