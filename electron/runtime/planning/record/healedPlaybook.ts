import { parse, stringify } from 'yaml';
import type { Playbook, Step, Task } from '../../../contract/index.js';
import { AgentDeskError } from '../../errors.js';
import { parsePlaybook } from '../playbook/parse.js';
import { planStepIdOf } from '../playbook/referenceRules.js';
import { expectationsFromOutput } from './expectationsFromOutput.js';
import { argsAsRecorded, escapeTemplates, latestAttempts } from './recordPlaybook.js';

/** A replayed playbook with the steps the model healed written in, and which positions those were. */
export interface HealedPlaybook {
  playbook: Playbook;
  yaml: string;
  /** 0-based positions whose recorded step was replaced by the healing model's calls. */
  healed: number[];
}

/**
 * The playbook a replay ran, with each healed step replaced by the calls that did its part
 * (recorded as any recording is: arguments as executed, a desktop click with its element, and
 * expectations from what each returned), so the next replay needs no model for it. Every other
 * step keeps its text as written. The last replacement keeps the step's id (later `${steps.…}`
 * references still find it); earlier ones get `<id>-heal<n>`.
 */
export function healedPlaybook(task: Task, steps: readonly Step[]): HealedPlaybook {
  if (task.plan.kind !== 'playbook') throw new AgentDeskError('invalid_params', `task ${task.id} was not a playbook replay`);
  const playbook = parsePlaybook(task.plan.source);
  const raw = parse(task.plan.source) as { steps: unknown[] } & Record<string, unknown>;
  const latest = latestAttempts(steps);
  const healed: number[] = [];
  const out: unknown[] = [];
  playbook.steps.forEach((planned, position) => {
    const id = planStepIdOf(planned, position);
    const calls = replacementOf(latest, playbook.steps.length, id);
    if (calls.length === 0) return void out.push(raw.steps[position]);
    healed.push(position);
    calls.forEach((step, k) =>
      out.push({
        id: k === calls.length - 1 ? id : `${id}-heal${k + 1}`,
        ...(planned.title !== undefined && { title: planned.title }),
        tool: step.tool,
        args: escapeTemplates(argsAsRecorded(step)),
        expect: escapeTemplates(expectationsFromOutput(step.output, step.readOnly)),
      }),
    );
  });
  const text = stringify({ ...raw, steps: out }, { lineWidth: 0 });
  return { playbook: parsePlaybook(text), yaml: text, healed };
}

/**
 * The calls of the healing round that completed a step: the completed replacement carrying its id,
 * and the completed calls just before it in the same round (consecutive positions, no id of their
 * own). A failed call ends the look back: it belonged to an earlier round.
 */
function replacementOf(latest: ReadonlyMap<number, Step>, count: number, id: string): Step[] {
  const last = [...latest.values()].find((s) => s.index >= count && s.status === 'completed' && s.planStepId === id);
  if (!last) return [];
  const calls = [last];
  for (let index = last.index - 1; index >= count; index--) {
    const before = latest.get(index);
    if (!before || before.status !== 'completed' || before.planStepId !== undefined) break;
    calls.unshift(before);
  }
  return calls;
}
