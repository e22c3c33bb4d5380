/**
 * The run fence on PostgreSQL: a commit of a run starts by asserting its worker still holds the
 * task, as a statement that fails the transaction when it does not (SQLSTATE ADL01, `runFence.ts`).
 * So the check goes with the commit's other statements in one round trip instead of a read of its
 * own first. SQLite checks in process, where a read costs no round trip.
 */
export const runFence = `-- PostgreSQL only: SQLite checks the owner with a read in the same transaction.`;

export const runFencePostgres = `
CREATE FUNCTION agent_desk_fence(task TEXT, worker TEXT) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM tasks WHERE id = task AND owner = worker) THEN
    RAISE EXCEPTION 'task % is not held by worker %', task, worker USING ERRCODE = 'ADL01';
  END IF;
  RETURN TRUE;
END $$;
`;
