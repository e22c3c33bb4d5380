/** Tasks, steps, approvals, remembered grants, the trace log and RPC idempotency keys. */
export const init = `
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  state TEXT NOT NULL,
  state_reason TEXT,
  plan TEXT NOT NULL,
  inputs TEXT NOT NULL,
  workspace TEXT NOT NULL,
  budget TEXT NOT NULL,
  usage TEXT NOT NULL,
  checks TEXT NOT NULL DEFAULT '[]',
  control TEXT,
  control_reason TEXT,
  owner_pid INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ended_at TEXT
);
CREATE INDEX tasks_by_state ON tasks(state, created_at);
CREATE INDEX tasks_by_created ON tasks(created_at);

CREATE TABLE steps (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  plan_step_id TEXT,
  tool TEXT NOT NULL,
  args TEXT NOT NULL,
  status TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  read_only INTEGER NOT NULL,
  idempotent INTEGER NOT NULL,
  route TEXT,
  policy TEXT,
  approval_id TEXT,
  output TEXT,
  output_digest TEXT,
  error TEXT,
  tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  duration_ms REAL,
  UNIQUE (task_id, idx, attempt)
);

CREATE TABLE approvals (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  step_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  subject TEXT NOT NULL,
  args TEXT NOT NULL,
  risks TEXT NOT NULL,
  reason TEXT NOT NULL,
  preview TEXT NOT NULL,
  rememberable INTEGER NOT NULL,
  status TEXT NOT NULL,
  remember TEXT,
  decision_reason TEXT,
  decided_by TEXT,
  created_at TEXT NOT NULL,
  decided_at TEXT
);
CREATE INDEX approvals_by_status ON approvals(status, created_at);
CREATE INDEX approvals_by_task ON approvals(task_id);

CREATE TABLE grants (
  id TEXT PRIMARY KEY,
  tool TEXT NOT NULL,
  subject TEXT NOT NULL,
  task_id TEXT,
  scope TEXT NOT NULL CHECK (scope IN ('task', 'always')),
  approval_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX grants_by_tool ON grants(tool, subject);

CREATE TABLE trace_events (
  task_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  ts TEXT NOT NULL,
  type TEXT NOT NULL,
  step_id TEXT,
  data TEXT NOT NULL,
  PRIMARY KEY (task_id, seq)
) WITHOUT ROWID;

CREATE TABLE rpc_idempotency (
  method TEXT NOT NULL,
  key TEXT NOT NULL,
  params_digest TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (method, key)
) WITHOUT ROWID;
`;
