import { AgentDeskError } from '../errors.js';
import type { EngineDeps } from './engineDeps.js';

/** Why this worker may not run a task: a live worker holds it, or it was saved by a newer planner. */
export async function refusedClaim(deps: Pick<EngineDeps, 'store' | 'lease'>, taskId: string): Promise<AgentDeskError> {
  const { store, lease } = deps;
  const version = await store.tasks.plannerVersion(taskId);
  if (version !== undefined && version > lease.plannerVersion) {
    return new AgentDeskError(
      'conflict',
      `task ${taskId} holds planner state version ${version}; this Agent Desk reads versions up to ${lease.plannerVersion}: a newer worker runs it`,
      { taskId, version, supported: lease.plannerVersion },
    );
  }
  const owner = await store.tasks.liveOwner(taskId, lease.freshSince());
  return new AgentDeskError('conflict', `task ${taskId} is being run by worker ${owner ?? 'another worker'}`, { taskId });
}
