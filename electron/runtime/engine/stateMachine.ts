import { TERMINAL_STATES, type TaskState } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';

const ALLOWED: Record<TaskState, readonly TaskState[]> = {
  queued: ['planning', 'cancelled', 'failed', 'paused'],
  planning: ['running', 'failed', 'cancelled', 'paused', 'waiting_user'],
  running: ['running', 'waiting_approval', 'waiting_user', 'paused', 'retrying', 'succeeded', 'failed', 'cancelled'],
  waiting_approval: ['running', 'failed', 'cancelled', 'paused', 'waiting_user'],
  waiting_user: ['running', 'failed', 'cancelled', 'waiting_user', 'paused'],
  paused: ['running', 'cancelled', 'failed', 'waiting_user'],
  retrying: ['running', 'failed', 'cancelled', 'paused', 'waiting_user'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

/** True for succeeded, failed and cancelled. */
export const isTerminal = (state: TaskState): boolean => TERMINAL_STATES.includes(state);

/** Throws a `conflict` error unless `from → to` is a legal task transition. */
export function assertTransition(from: TaskState, to: TaskState): void {
  if (!ALLOWED[from].includes(to)) {
    throw new AgentDeskError('conflict', `a ${from} task cannot become ${to}`, { from, to });
  }
}
