import type { AcceptanceCheck, Task } from '../../electron/contract/index.js';
import type { PlanFactory, TaskPlan } from '../../electron/runtime/engine/ports.js';
import type { Planner, PlannerDecision, PlannerUsage } from '../../electron/runtime/planning/planner.js';

/** One scripted model turn: a tool call with the usage the "model" reported. */
export interface ScriptedCall {
  tool: string;
  args: Record<string, unknown>;
  usage?: PlannerUsage;
}

/**
 * The sanctioned stand-in for a model: answers from a script, picking the turn from the number
 * of finished steps so it stays deterministic across restarts.
 */
export class ScriptedPlanner implements Planner {
  readonly kind = 'scripted';
  calls = 0;
  constructor(private readonly script: (turn: number) => ScriptedCall | 'done') {}

  async next(state: Parameters<Planner['next']>[0]): Promise<PlannerDecision> {
    this.calls++;
    const finished = new Set(state.steps.filter((s) => s.status === 'completed' || s.status === 'skipped').map((s) => s.index));
    const turn = finished.size;
    const call = this.script(turn);
    if (call === 'done') return { type: 'done' };
    return {
      type: 'call',
      index: turn,
      tool: call.tool,
      args: call.args,
      expect: [],
      retries: 0,
      ...(call.usage && { usage: call.usage }),
    };
  }
}

/** Routes `goal` tasks to a scripted planner and everything else to the playbook factory. */
export function withScriptedGoals(planner: Planner, acceptance: AcceptanceCheck[] = []): (playbooks: PlanFactory) => PlanFactory {
  return (playbooks) =>
    (task: Task): TaskPlan | Promise<TaskPlan> =>
      task.plan.kind === 'goal' ? { planner, services: [], baseDir: task.workspace, acceptance: () => acceptance } : playbooks(task);
}
