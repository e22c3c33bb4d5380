/**
 * Budgets that pause and ask. `spend_ledger` keeps counters charged in the transaction of the
 * usage write that spent them: a person's spend per UTC day (`scope = 'person'`), and the raises
 * approvers gave (a person's day, the team's month: `scope = 'team'`, subject ''). `task_spend`
 * is what each task has been charged so far, so a charge adds only the difference (a retried or
 * taken-over write never counts twice). Dollars are integer micro-dollars: sums stay exact.
 * `budget_holds` are the questions tasks stopped at a limit wait on (they survive restarts).
 */
export const spend = `
CREATE TABLE spend_ledger (
  scope TEXT NOT NULL,
  subject TEXT NOT NULL,
  period TEXT NOT NULL,
  name TEXT NOT NULL,
  usd_micros INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0,
  raised_usd_micros INTEGER NOT NULL DEFAULT 0,
  raised_tokens INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, subject, period)
);
CREATE INDEX spend_ledger_period ON spend_ledger(scope, period);
CREATE TABLE task_spend (
  task_id TEXT PRIMARY KEY,
  subject TEXT NOT NULL,
  usd_micros INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE budget_holds (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL,
  limit_kind TEXT NOT NULL,
  metric TEXT NOT NULL,
  spent REAL NOT NULL,
  cap REAL NOT NULL,
  raise_by REAL NOT NULL,
  subject TEXT,
  period TEXT,
  asked_at TEXT NOT NULL,
  decided_at TEXT,
  decided_by_subject TEXT,
  decided_by_name TEXT,
  outcome TEXT,
  raised REAL
);
CREATE INDEX budget_holds_open ON budget_holds(task_id, decided_at);
`;
