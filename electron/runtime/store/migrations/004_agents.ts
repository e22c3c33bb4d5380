/** Agent definitions, which agent a task runs as, and delegations from parent to child tasks. */
export const agents = `
CREATE TABLE agents (
  name TEXT PRIMARY KEY,
  spec TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE task_agents (
  task_id TEXT PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  agent TEXT NOT NULL
);

CREATE TABLE delegations (
  parent_task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  -- The delegating call's idempotency key + child position: a re-run finds the same child.
  call_key TEXT NOT NULL,
  child_task_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (parent_task_id, call_key)
) WITHOUT ROWID;
`;
