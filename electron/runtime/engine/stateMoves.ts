import type { ServerText, Task, TaskState, Usage } from '../../contract/index.js';
import type { Repos } from '../store/store.js';
import type { TraceLog } from '../trace/traceLog.js';
import { assertTransition, isTerminal } from './stateMachine.js';
import { type AnyStateReason, reasonParts, stateReasons } from './stateReasons.js';

/** A state change a run records: from, to, and the reason as English and catalog code. */
export interface StateMove {
  from: TaskState;
  to: TaskState;
  reason: string;
  text?: ServerText;
}

/**
 * What takes a task in `state` to running. A task that starts goes through planning to running
 * in one commit: nothing happens between. A task waiting on an approval stays (the executor waits
 * on the decision).
 */
export function movesToRunning(state: TaskState): [TaskState, AnyStateReason][] {
  if (state === 'queued')
    return [
      ['planning', stateReasons.runStarted()],
      ['running', stateReasons.planReady()],
    ];
  if (state === 'planning') return [['running', stateReasons.planReady()]];
  if (state === 'running') return [['running', stateReasons.resumedAfterInterruption()]];
  if (state === 'paused' || state === 'retrying' || state === 'waiting_user') return [['running', stateReasons.resumed()]];
  return [];
}

/** The changes from `from` on, each checked against the state machine. */
export function plannedMoves(from: TaskState, changes: readonly (readonly [TaskState, AnyStateReason])[]): StateMove[] {
  return changes.map(([to, why]) => {
    assertTransition(from, to);
    const move = { from, to, ...reasonParts(why) };
    from = to;
    return move;
  });
}

/**
 * Writes each move in `tx`: its row update and its trace event. Returns each move's task, there
 * once the transaction committed (the row comes back with the COMMIT: `deferGet`).
 */
export async function recordMoves(
  tx: Repos,
  trace: TraceLog,
  taskId: string,
  moves: readonly StateMove[],
  { at, usage }: { at: string; usage: Usage },
): Promise<(() => Task)[]> {
  const states: (() => Task)[] = [];
  for (const { from, to, reason, text } of moves) {
    const endedAt = isTerminal(to) ? at : undefined;
    states.push(await tx.tasks.setStateAtCommit(taskId, { state: to, reason, text, at, endedAt, usage }));
    await trace.append(taskId, 'task.transition', { from, to, reason }, undefined, tx.trace);
  }
  return states;
}
