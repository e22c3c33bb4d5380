import type Database from 'better-sqlite3';
import type { TaskEventKind } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
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

/**
 * Planner states of goal tasks: a header row per task and its turns appended one row each, so
 * a save costs the same however long the conversation is. A save lands whole or not at all.
 */
export class PlannerStateRepo {
  private readonly headerStmt: Database.Statement;
  private readonly turnsStmt: Database.Statement;
  private readonly upsertStmt: Database.Statement;
  private readonly turnStmt: Database.Statement;
  private readonly answerStmt: Database.Statement;
  private readonly events: TaskEventRepo;
  private readonly writeAll: (taskId: string, write: PlannerStateWrite) => void;
  private readonly saveAll: (taskId: string, write: PlannerStateWrite) => void;

  constructor(private readonly db: Database.Database) {
    this.headerStmt = db.prepare('SELECT version, header FROM planner_states WHERE task_id = ?');
    this.turnsStmt = db.prepare('SELECT turn FROM planner_turns WHERE task_id = ? ORDER BY seq');
    this.upsertStmt = db.prepare(
      `INSERT INTO planner_states (task_id, version, header, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(task_id) DO UPDATE SET version = excluded.version, header = excluded.header, updated_at = excluded.updated_at`,
    );
    this.turnStmt = db.prepare(
      `INSERT INTO planner_turns (task_id, seq, turn)
       SELECT @taskId, COALESCE(MAX(seq), 0) + 1, @turn FROM planner_turns WHERE task_id = @taskId`,
    );
    this.answerStmt = db.prepare('UPDATE tasks SET answer = ?, updated_at = ? WHERE id = ?');
    this.events = new TaskEventRepo(db);
    this.writeAll = (taskId: string, write: PlannerStateWrite) => {
      for (const turn of write.turns) this.turnStmt.run({ taskId, turn: toJson(turn) });
      this.upsertStmt.run(taskId, write.version, toJson(write.header), write.at);
      for (const event of write.events) this.events.append(taskId, event.kind, event.text, write.at);
      if (write.answer !== undefined) this.answerStmt.run(write.answer, write.at, taskId);
    };
    this.saveAll = db.transaction(this.writeAll);
  }

  load(taskId: string): StoredPlannerState | undefined {
    const row = this.headerStmt.get(taskId) as { version: number; header: string } | undefined;
    if (!row) return undefined;
    const turns = (this.turnsStmt.all(taskId) as { turn: string }[]).map((r) => JSON.parse(r.turn) as unknown);
    return { version: row.version, header: JSON.parse(row.header), turns };
  }

  /** Inside a transaction (the run's commit queue) the save already lands whole with it: no savepoint of its own. */
  save(taskId: string, write: PlannerStateWrite): void {
    if (this.db.inTransaction) this.writeAll(taskId, write);
    else this.saveAll(taskId, write);
  }
}
