import type { Step, Task } from '../../contract/index.js';
import type { PlannerDecision } from '../planning/planner.js';
import type { EngineDeps } from './engineDeps.js';
import type { RunControl, RunView } from './runView.js';
import { StepExecutor, type StepOutcome } from './stepExecutor.js';
import type { StepRecorder } from './stepRecorder.js';

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;
type BatchDecision = Extract<PlannerDecision, { type: 'batch' }>;

/** One call of a batch and what became of it. */
export interface BatchResult {
  decision: CallDecision;
  outcome: StepOutcome;
}

/**
 * Runs the calls a model made in one turn. When every call is read-only and allowed outright
 * they run at the same time, each with its own executor (records are keyed by plan index, so
 * the model still reads the results in its order). A write, an approval or a resumed position
 * anywhere in the batch → one after another, stopping at the first call that stops the task.
 */
export async function executeBatch(
  deps: EngineDeps,
  run: RunView & RunControl,
  recorder: StepRecorder,
  batch: BatchDecision,
): Promise<BatchResult[]> {
  // The model call that chose the batch is charged to its first step, as for a single call.
  const calls = batch.calls.map((call, i) => (i === 0 && batch.usage ? { ...call, usage: batch.usage } : call));
  if (await runsConcurrently(deps, run, calls)) {
    const outcomes = await Promise.all(calls.map((decision) => new StepExecutor(deps, run, recorder).execute(decision)));
    return calls.map((decision, i) => ({ decision, outcome: outcomes[i]! }));
  }
  const results: BatchResult[] = [];
  for (const decision of calls) {
    const outcome = await new StepExecutor(deps, run, recorder).execute(decision);
    results.push({ decision, outcome });
    if (outcome.kind === 'stop') break;
  }
  return results;
}

/** Concurrency is for calls that cannot affect each other: read-only, no approval (or provider flag), fresh positions. */
async function runsConcurrently(deps: EngineDeps, run: RunView, calls: readonly CallDecision[]): Promise<boolean> {
  if (calls.length < 2) return false;
  const task = run.task();
  for (const decision of calls) if (!(await runsAlone(deps, run, task, decision))) return false;
  return true;
}

/** Whether this call could run beside others: read-only, allowed outright, at a fresh position. */
async function runsAlone(deps: EngineDeps, run: RunView, task: Task, decision: CallDecision): Promise<boolean> {
  if (run.latestStep(decision.index) !== undefined || decision.safetyChecks?.length) return false;
  let primary;
  try {
    primary = (
      await deps.router.plan({
        ...(decision.tool !== undefined && { tool: decision.tool }),
        ...(decision.capability !== undefined && { capability: decision.capability }),
        args: decision.args,
        task, // route as the executor will: among the tools the task's agent may use
      })
    ).candidates[0];
  } catch {
    return false; // the executor records why it cannot be routed, in order
  }
  if (!primary || deps.hooks?.has('PreToolUse', primary.tool.name)) return false; // a hook may ask: one at a time
  const classification = primary.tool.classify(primary.args, { workspace: task.workspace });
  if (!classification.readOnly) return false;
  const policy = await deps.gate.decide({ taskId: task.id, tool: primary.tool.name, classification, networkAllow: run.networkAllow() });
  return policy.effect === 'allow';
}

/** Completed steps of a batch, in call order (for loop detection). */
export function completedSteps(results: readonly BatchResult[]): { decision: CallDecision; step: Step }[] {
  return results.flatMap((r) => (r.outcome.kind === 'completed' ? [{ decision: r.decision, step: r.outcome.step }] : []));
}
