import type { Budget, BudgetHold } from '../../contract/index.js';
import type { SqlSession } from './sql/sqlPort.js';

interface HoldRow {
  id: string;
  task_id: string;
  limit_kind: BudgetHold['limit'];
  metric: BudgetHold['metric'];
  spent: unknown;
  cap: unknown;
  raise_by: unknown;
  subject: string | null;
  period: string | null;
  asked_at: string;
  decided_at: string | null;
  decided_by_subject: string | null;
  decided_by_name: string | null;
  outcome: BudgetHold['outcome'] | null;
  raised: unknown;
}

const toHold = (r: HoldRow): BudgetHold => ({
  id: r.id,
  taskId: r.task_id,
  limit: r.limit_kind,
  metric: r.metric,
  spent: Number(r.spent),
  cap: Number(r.cap),
  raiseBy: Number(r.raise_by),
  ...(r.subject !== null && { subject: r.subject }),
  ...(r.period !== null && { period: r.period }),
  askedAt: r.asked_at,
  ...(r.decided_at !== null && { decidedAt: r.decided_at }),
  ...(r.decided_by_subject !== null && { decidedBy: { subject: r.decided_by_subject, name: r.decided_by_name ?? r.decided_by_subject } }),
  ...(r.outcome !== null && { outcome: r.outcome }),
  ...(r.raised !== null && r.raised !== undefined && { raised: Number(r.raised) }),
});

/** How a person decided a hold. */
export interface HoldDecision {
  outcome: 'raised' | 'declined';
  by: { subject: string; name: string };
  raised?: number;
  at: string;
}

/** Budget holds (migration 15): the durable questions of tasks stopped at a limit. */
export class BudgetHoldRepo {
  constructor(private readonly db: SqlSession) {}

  /** Records a hold; an older open hold of the task is superseded (one question per task). */
  async open(hold: BudgetHold): Promise<void> {
    await this.db.defer("UPDATE budget_holds SET outcome = 'superseded', decided_at = ? WHERE task_id = ? AND decided_at IS NULL", [
      hold.askedAt,
      hold.taskId,
    ]);
    await this.db.defer(
      `INSERT INTO budget_holds (id, task_id, limit_kind, metric, spent, cap, raise_by, subject, period, asked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        hold.id,
        hold.taskId,
        hold.limit,
        hold.metric,
        hold.spent,
        hold.cap,
        hold.raiseBy,
        hold.subject ?? null,
        hold.period ?? null,
        hold.askedAt,
      ],
    );
  }

  /** The task's open hold, if it waits on one. */
  async current(taskId: string): Promise<BudgetHold | undefined> {
    const row = await this.db.get<HoldRow>(
      'SELECT * FROM budget_holds WHERE task_id = ? AND decided_at IS NULL ORDER BY asked_at DESC LIMIT 1',
      [taskId],
    );
    return row && toHold(row);
  }

  /** Decides an open hold; false when it was decided already (a second approver, a race): one decision counts. */
  async decide(id: string, d: HoldDecision): Promise<boolean> {
    const { changes } = await this.db.run(
      `UPDATE budget_holds SET decided_at = ?, decided_by_subject = ?, decided_by_name = ?, outcome = ?, raised = ?
       WHERE id = ? AND decided_at IS NULL`,
      [d.at, d.by.subject, d.by.name, d.outcome, d.raised ?? null, id],
    );
    return changes === 1;
  }

  async get(id: string): Promise<BudgetHold | undefined> {
    const row = await this.db.get<HoldRow>('SELECT * FROM budget_holds WHERE id = ?', [id]);
    return row && toHold(row);
  }

  /** A task's holds, oldest first. */
  async forTask(taskId: string): Promise<BudgetHold[]> {
    const rows = await this.db.all<HoldRow>('SELECT * FROM budget_holds WHERE task_id = ? ORDER BY asked_at, id', [taskId]);
    return rows.map(toHold);
  }

  /** A task's own budget after a raise (the raise is the only writer besides the task's creation). */
  async setTaskBudget(taskId: string, budget: Budget, at: string): Promise<void> {
    await this.db.run('UPDATE tasks SET budget = ?, updated_at = ? WHERE id = ?', [JSON.stringify(budget), at, taskId]);
  }

  /** Other open holds on the same person's day or team's month: one raise answers them all. */
  async sharing(hold: BudgetHold): Promise<BudgetHold[]> {
    const rows = await this.db.all<HoldRow>(
      "SELECT * FROM budget_holds WHERE decided_at IS NULL AND limit_kind = ? AND COALESCE(subject, '') = ? AND period = ? AND id <> ? ORDER BY asked_at, id",
      [hold.limit, hold.subject ?? '', hold.period ?? '', hold.id],
    );
    return rows.map(toHold);
  }
}
