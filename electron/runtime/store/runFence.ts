import type { SqlSession } from './sql/sqlPort.js';

/** The SQLSTATE `agent_desk_fence` raises (migration 013): the run's worker no longer holds the task. */
const FENCE_SQLSTATE = 'ADL01';

/** Thrown (SQLite) or raised by the server at commit (PostgreSQL) when a run's commit finds its lease taken. */
export class FenceBroken extends Error {
  constructor(readonly taskId: string) {
    super(`task ${taskId} is no longer held by this worker`);
  }
}

/** True for a commit that failed because the run lost its lease, on either store. */
export function isFenceBroken(error: unknown): boolean {
  return error instanceof FenceBroken || (error as { code?: unknown } | null)?.code === FENCE_SQLSTATE;
}

/**
 * Asserts in `tx` that `owner` holds the task's run, so a run whose lease was taken writes nothing
 * in this transaction. On PostgreSQL the check is deferred: it goes first in the commit's one
 * query and fails it there, with everything after it.
 */
export async function fenceRun(tx: SqlSession, taskId: string, owner: string): Promise<void> {
  if (tx.dialect === 'postgres') return tx.defer('SELECT agent_desk_fence(?, ?)', [taskId, owner]);
  if ((await tx.get('SELECT 1 AS held FROM tasks WHERE id = ? AND owner = ?', [taskId, owner])) === undefined) throw new FenceBroken(taskId);
}
