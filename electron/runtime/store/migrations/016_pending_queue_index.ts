/**
 * The pending entries of the queue in order, and only those: a fill reads the first few of them
 * (`TaskQueueRepo.ready`). With only `(state, seq)` and the primary key, PostgreSQL with fresh
 * statistics walked the primary key past every finished entry to reach them (2,001 rows for 8 at
 * 2,000 done), and without statistics sorted the whole backlog on every fill.
 */
export const pendingQueueIndex = `
CREATE INDEX task_queue_pending ON task_queue(seq) WHERE state = 'pending';
`;
