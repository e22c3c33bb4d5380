import type { Spend } from '../../contract/index.js';
import type { SqlSession } from './sql/sqlPort.js';

/** Dollars as integer micro-dollars: the ledger adds integers, so a sum of many charges is exact. */
export const toMicros = (usd: number): number => Math.round(usd * 1_000_000);
const fromMicros = (micros: unknown): number => Number(micros ?? 0) / 1_000_000;

/** What a task has spent in all, as the run's usage says. */
export interface TaskSpendTotal {
  usd: number;
  tokens: number;
}

/** One ledger row: spent, and raised by approvers, against a limit of one scope and period. */
export interface LedgerTotals {
  spent: Spend;
  raised: Spend;
}

interface LedgerRow {
  usd_micros: unknown;
  tokens: unknown;
  raised_usd_micros: unknown;
  raised_tokens: unknown;
}

interface PersonRow {
  subject: string;
  name: string;
  usd_micros: unknown;
  tokens: unknown;
}

// The charge is the task's new total minus what it was charged before (task_spend), so writing
// the same total twice (a retried commit, a takeover writing what the dead worker had) adds 0.
const CHARGE_PERSON = `INSERT INTO spend_ledger (scope, subject, period, name, usd_micros, tokens)
  VALUES ('person', ?, ?, ?, ? - COALESCE((SELECT usd_micros FROM task_spend WHERE task_id = ?), 0),
    ? - COALESCE((SELECT tokens FROM task_spend WHERE task_id = ?), 0))
  ON CONFLICT (scope, subject, period) DO UPDATE SET name = excluded.name,
    usd_micros = spend_ledger.usd_micros + excluded.usd_micros, tokens = spend_ledger.tokens + excluded.tokens`;
const RECORD_TASK = `INSERT INTO task_spend (task_id, subject, usd_micros, tokens, updated_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (task_id) DO UPDATE SET usd_micros = excluded.usd_micros, tokens = excluded.tokens, updated_at = excluded.updated_at`;
const RAISE = `INSERT INTO spend_ledger (scope, subject, period, name, raised_usd_micros, raised_tokens) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (scope, subject, period) DO UPDATE SET
    raised_usd_micros = spend_ledger.raised_usd_micros + excluded.raised_usd_micros,
    raised_tokens = spend_ledger.raised_tokens + excluded.raised_tokens`;

/** The UTC day and month of an ISO time: the periods of the per-person and per-team limits. */
export function periodsOf(atIso: string): { day: string; month: string } {
  return { day: atIso.slice(0, 10), month: atIso.slice(0, 7) };
}

/**
 * The spend ledger (migration 15): charged in the transaction that writes a run's usage, read by
 * the checks before each model call and by `spend.summary`. See docs/architecture.md, "Budgets".
 */
export class SpendRepo {
  constructor(private readonly db: SqlSession) {}

  /**
   * Charges a task's owner for what the task spent since its last charge (deferred: it rides with
   * the usage write's commit). Concurrent charges of one person serialize on the ledger row.
   */
  async charge(taskId: string, owner: { subject: string; name: string }, total: TaskSpendTotal, at: string): Promise<void> {
    const usd = toMicros(total.usd);
    const { day } = periodsOf(at);
    await this.db.defer(CHARGE_PERSON, [owner.subject, day, owner.name, usd, taskId, total.tokens, taskId]);
    await this.db.defer(RECORD_TASK, [taskId, owner.subject, usd, total.tokens, at]);
  }

  /** A person's day: spent and raised. */
  async personDay(subject: string, day: string): Promise<LedgerTotals> {
    const row = await this.db.get<LedgerRow>(
      "SELECT usd_micros, tokens, raised_usd_micros, raised_tokens FROM spend_ledger WHERE scope = 'person' AND subject = ? AND period = ?",
      [subject, day],
    );
    return totalsOf(row);
  }

  /** The team's month: what every person spent in it, and the raises given for it. */
  async teamMonth(month: string): Promise<LedgerTotals> {
    const spent = await this.db.get<{ usd: unknown; tokens: unknown }>(
      "SELECT SUM(usd_micros) AS usd, SUM(tokens) AS tokens FROM spend_ledger WHERE scope = 'person' AND period >= ? AND period < ?",
      [`${month}-01`, `${month}-99`],
    );
    const raised = await this.db.get<LedgerRow>(
      "SELECT 0 AS usd_micros, 0 AS tokens, raised_usd_micros, raised_tokens FROM spend_ledger WHERE scope = 'team' AND subject = '' AND period = ?",
      [month],
    );
    return { spent: { usd: fromMicros(spent?.usd), tokens: Number(spent?.tokens ?? 0) }, raised: totalsOf(raised).raised };
  }

  /** Raises a person's day (`scope` person) or the team's month (`scope` team, subject ''). */
  async raise(scope: 'person' | 'team', subject: string, period: string, by: Partial<Spend>, name = subject || 'team'): Promise<void> {
    await this.db.run(RAISE, [scope, subject, period, name, toMicros(by.usd ?? 0), Math.round(by.tokens ?? 0)]);
  }

  /** Each person's spend on a day, most first. */
  async people(day: string): Promise<(Spend & { subject: string; name: string })[]> {
    const rows = await this.db.all<PersonRow>(
      "SELECT subject, name, usd_micros, tokens FROM spend_ledger WHERE scope = 'person' AND period = ? ORDER BY usd_micros DESC, subject",
      [day],
    );
    return rows.map((r) => ({ subject: r.subject, name: r.name, usd: fromMicros(r.usd_micros), tokens: Number(r.tokens) }));
  }

  /** What a task has been charged so far (undefined: nothing yet). */
  async task(taskId: string): Promise<(Spend & { subject: string }) | undefined> {
    const row = await this.db.get<{ subject: string; usd_micros: unknown; tokens: unknown }>(
      'SELECT subject, usd_micros, tokens FROM task_spend WHERE task_id = ?',
      [taskId],
    );
    return row && { subject: row.subject, usd: fromMicros(row.usd_micros), tokens: Number(row.tokens) };
  }
}

function totalsOf(row: LedgerRow | undefined): LedgerTotals {
  return {
    spent: { usd: fromMicros(row?.usd_micros), tokens: Number(row?.tokens ?? 0) },
    raised: { usd: fromMicros(row?.raised_usd_micros), tokens: Number(row?.raised_tokens ?? 0) },
  };
}
