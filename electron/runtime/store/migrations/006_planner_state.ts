/**
 * One conversation per goal task, durable: the planner's versioned state (a header row plus its
 * turns, appended — so saving a turn costs the same at step 10 and at step 10,000), the task's
 * user-facing events (user messages, model text, reasoning summaries, the answer) and the answer.
 */
export const plannerState = `
CREATE TABLE planner_states (
  task_id TEXT PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  header TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE planner_turns (
  task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  turn TEXT NOT NULL,
  PRIMARY KEY (task_id, seq)
);
CREATE TABLE task_events (
  task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (task_id, seq)
);
-- A planner reads only the user's messages after the last it saw, however long the conversation.
CREATE INDEX task_events_by_kind ON task_events(task_id, kind, seq);
ALTER TABLE tasks ADD COLUMN answer TEXT;
`;
