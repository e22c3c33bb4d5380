/** Cron jobs, their runs, the background queue, and the parent link of delegated tasks. */
export const scheduler = `
ALTER TABLE tasks ADD COLUMN parent_id TEXT;
CREATE INDEX tasks_by_parent ON tasks(parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE cron_jobs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  schedule TEXT NOT NULL,
  timezone TEXT NOT NULL,
  target TEXT NOT NULL,
  agent_id TEXT,
  overlap TEXT NOT NULL CHECK (overlap IN ('skip', 'queue')),
  missed TEXT NOT NULL CHECK (missed IN ('skip', 'run_once')),
  budget TEXT,
  enabled INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'blocked')),
  blocked_reason TEXT,
  next_run_at TEXT,
  last_run_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE cron_runs (
  id TEXT PRIMARY KEY,
  job_id TEXT NOT NULL REFERENCES cron_jobs(id) ON DELETE CASCADE,
  scheduled_for TEXT NOT NULL,
  fired_at TEXT NOT NULL,
  trigger TEXT NOT NULL,
  outcome TEXT NOT NULL,
  task_id TEXT,
  reason TEXT
);
-- One record per scheduled fire time: a crash between firing and advancing never fires it twice.
CREATE UNIQUE INDEX cron_runs_once ON cron_runs(job_id, scheduled_for) WHERE trigger != 'manual';
CREATE INDEX cron_runs_by_job ON cron_runs(job_id, fired_at);

CREATE TABLE task_queue (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id TEXT NOT NULL UNIQUE REFERENCES tasks(id) ON DELETE CASCADE,
  agent_id TEXT,
  -- Entries sharing a serial key run one at a time, in order (a cron job with overlap=queue).
  serial_key TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done')),
  owner_pid INTEGER,
  starts INTEGER NOT NULL DEFAULT 0,
  outcome TEXT,
  enqueued_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT
);
CREATE INDEX task_queue_by_state ON task_queue(state, seq);
`;
