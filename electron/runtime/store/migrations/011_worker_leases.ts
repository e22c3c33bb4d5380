/**
 * Runner leases held by workers instead of process ids: a pid means nothing on another machine.
 * Each process that runs tasks registers a worker row and renews its heartbeat; a task run or a
 * queue entry names its worker, and a worker whose heartbeat is stale (or, on its own machine,
 * whose process is gone) holds nothing. Owners from before this version become `pid-N` with no
 * worker row, so whatever they held is taken over like any dead worker's.
 */
export const workerLeases = `
CREATE TABLE workers (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  planner_version INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
);
CREATE INDEX workers_by_host ON workers(host);
ALTER TABLE tasks ADD COLUMN owner TEXT;
UPDATE tasks SET owner = 'pid-' || owner_pid WHERE owner_pid IS NOT NULL;
ALTER TABLE tasks DROP COLUMN owner_pid;
ALTER TABLE task_queue ADD COLUMN owner TEXT;
UPDATE task_queue SET owner = 'pid-' || owner_pid WHERE owner_pid IS NOT NULL;
ALTER TABLE task_queue DROP COLUMN owner_pid;
`;
