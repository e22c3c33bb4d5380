import type { Step } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { stepIdentity } from './stepRecord.js';
import { isoAt } from '../clock.js';
import { quickDigestOf } from '../digest.js';
import type { Store } from '../store/store.js';
import type { Redactor } from '../trace/redactor.js';
import type { TraceLog } from '../trace/traceLog.js';
import type { Emit } from './ports.js';

/**
 * User actions (human takeover) live at plan positions from here on: far past any playbook's
 * steps, so a playbook planner never mistakes one for its own step, while a model planner's
 * next index (the highest recorded + 1) simply continues after them.
 */
export const USER_STEP_INDEX_BASE = 1_000_000;

/** What recording a user action needs from the runtime. */
export interface UserStepDeps {
  store: Store;
  trace: TraceLog;
  redactor: Redactor;
  clock: Clock;
  emit: Emit;
}

/** One action a person performed on the task's behalf, already done. */
export interface UserAction {
  tool: string;
  args: unknown;
  output?: unknown;
  error?: string;
  startedAt: number;
}

/**
 * Records an action a person performed during a takeover as a finished step of the task (row,
 * trace with `actor: user`, `task.step` event). The person saw its effect, so there is nothing to
 * re-run after a crash: it is written once, completed or failed, after it happened.
 */
export async function recordUserStep(deps: UserStepDeps, taskId: string, action: UserAction): Promise<Step> {
  const end = deps.clock.now();
  const existing = await deps.store.steps.forTask(taskId);
  const index = Math.max(USER_STEP_INDEX_BASE, ...existing.map((s) => s.index + 1));
  const status = action.error === undefined ? 'completed' : 'failed';
  const step: Step = deps.redactor.value({
    ...stepIdentity(taskId, index, 1),
    taskId,
    index,
    attempt: 1,
    tool: action.tool,
    args: action.args,
    status,
    readOnly: false,
    idempotent: false,
    ...(action.output !== undefined && { output: action.output, outputDigest: quickDigestOf(action.output) }),
    ...(action.error !== undefined && { error: action.error }),
    tokens: 0,
    costUsd: 0,
    startedAt: isoAt(action.startedAt),
    endedAt: isoAt(end),
    durationMs: end - action.startedAt,
  });
  await deps.store.transaction(async (tx) => {
    await tx.steps.save(step);
    await deps.trace.append(
      taskId,
      status === 'completed' ? 'step.completed' : 'step.failed',
      { index, tool: step.tool, actor: 'user', args: step.args, ...(step.error && { error: step.error }), durationMs: step.durationMs },
      step.id,
      tx.trace,
    );
  });
  deps.emit('task.step', step);
  return step;
}

/**
 * Steps as they happened: by start time, then plan position and attempt. A person's takeover
 * actions sit at plan positions past every agent step, so plan order would list them last.
 */
export function inTimeOrder(steps: readonly Step[]): Step[] {
  return [...steps].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.index - b.index || a.attempt - b.attempt);
}
