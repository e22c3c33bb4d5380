import type { TaskEventKind } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
import { numberedLog, upsertRows } from './sql/rowBatch.js';
import type { SqlSession } from './sql/sqlPort.js';
import { TaskEventRepo } from './taskEventRepo.js';

/** A planner state as stored: its version, its header and every turn, oldest first (not yet validated). */
export interface StoredPlannerState {
  version: number;
  header: unknown;
  turns: unknown[];
}

/** One save: the new header, the turns added since the last save, and what people should read of them. */
export interface PlannerStateWrite {
  version: number;
  header: unknown;
  turns: readonly unknown[];
  events: readonly { kind: TaskEventKind; text: string }[];
  /** The task's final answer, when the model finished. */
  answer?: string;
  at: string;
}

// A commit of many steps writes one task's header many times: only the last is sent.
const headers = upsertRows('planner_states', ['task_id', 'version', 'header', 'updated_at']);
const turnRows = numberedLog('planner_turns', ['turn']);

/**
 * Planner states of goal tasks: a header row per task and its turns appended one row each, so
 * a save costs the same however long the conversation is. Save it inside a transaction (the
 * run's commit): it lands whole or not at all.
 */
export class PlannerStateRepo {
  private readonly events: TaskEventRepo;

  constructor(private readonly db: SqlSession) {
    this.events = new TaskEventRepo(db);
  }

  async load(taskId: string): Promise<StoredPlannerState | undefined> {
    const row = await this.db.get<{ version: number; header: string }>('SELECT version, header FROM planner_states WHERE task_id = ?', [
      taskId,
    ]);
    if (!row) return undefined;
    const turns = await this.db.all<{ turn: string }>('SELECT turn FROM planner_turns WHERE task_id = ? ORDER BY seq', [taskId]);
    return { version: row.version, header: JSON.parse(row.header), turns: turns.map((r) => JSON.parse(r.turn) as unknown) };
  }

  async save(taskId: string, write: PlannerStateWrite): Promise<void> {
    for (const turn of write.turns) await this.db.deferRow(turnRows.of(taskId), [taskId, toJson(turn)]);
    await this.db.deferRow(headers, [taskId, write.version, toJson(write.header), write.at]);
    for (const event of write.events) await this.events.record(taskId, event.kind, event.text, write.at);
    if (write.answer !== undefined)
      await this.db.defer('UPDATE tasks SET answer = ?, updated_at = ? WHERE id = ?', [write.answer, write.at, taskId]);
  }
}
