import { stringify } from 'yaml';
import { PlaybookSchema, type AcceptanceCheck, type Playbook, type Step, type Task } from '../../../contract/index.js';
import { AgentDeskError } from '../../errors.js';
import { recordedComputerArgs } from './desktopStep.js';
import { expectationsFromOutput } from './expectationsFromOutput.js';

/** What recording needs besides the task and its steps. */
export interface RecordOptions {
  /** The model that heals a failing step on replay; default: the model the task ran with. */
  model?: string;
}

/** A recorded playbook, as data and as the YAML a file holds. */
export interface RecordedPlaybook {
  playbook: Playbook;
  yaml: string;
}

/**
 * Saves a succeeded model-planned task as a playbook: its completed steps in plan order (tool +
 * arguments, with expectations derived from what each returned), its acceptance checks, its goal,
 * and the model that heals a step whose expectation fails on replay. Failed attempts the model
 * recovered from are left out: replay repeats what worked.
 */
export function recordPlaybook(task: Task, steps: readonly Step[], options: RecordOptions = {}): RecordedPlaybook {
  if (task.plan.kind !== 'goal') {
    throw new AgentDeskError('invalid_params', `task ${task.id} ran a playbook already; only model-planned (goal) tasks are recorded`);
  }
  if (task.state !== 'succeeded') {
    throw new AgentDeskError('conflict', `task ${task.id} is ${task.state}; only a succeeded task can be recorded`, {
      state: task.state,
    });
  }
  const completed = latestCompleted(steps);
  if (completed.length === 0) throw new AgentDeskError('invalid_params', `task ${task.id} completed no steps: there is nothing to replay`);
  const model = options.model ?? task.plan.model;
  const raw = {
    name: task.title,
    description: `Recorded from task ${task.id}.`,
    goal: task.plan.goal,
    ...(model !== undefined && { heal: { model } }),
    steps: completed.map((step, i) => ({
      id: `step${i + 1}`,
      tool: step.tool,
      args: escapeTemplates(argsAsRecorded(step)),
      expect: escapeTemplates(expectationsFromOutput(step.output, step.readOnly)),
    })),
    acceptance: escapeTemplates(task.plan.acceptance ?? []) as AcceptanceCheck[],
  };
  const playbook = PlaybookSchema.parse(raw);
  return { playbook, yaml: stringify(raw, { lineWidth: 0 }) };
}

/** A step's arguments as executed; a desktop click also keeps the element it acted on. */
export function argsAsRecorded(step: Step): Record<string, unknown> {
  const args = (step.args ?? {}) as Record<string, unknown>;
  return step.tool === 'computer' ? recordedComputerArgs(args, step.output) : args;
}

/** The latest attempt of every plan position. */
export function latestAttempts(steps: readonly Step[]): Map<number, Step> {
  const latest = new Map<number, Step>();
  for (const step of steps) {
    const seen = latest.get(step.index);
    if (!seen || step.attempt >= seen.attempt) latest.set(step.index, step);
  }
  return latest;
}

/** The latest attempt of every plan position, kept when it completed, in plan order. */
function latestCompleted(steps: readonly Step[]): Step[] {
  return [...latestAttempts(steps).values()].filter((s) => s.status === 'completed').sort((a, b) => a.index - b.index);
}

/** Recorded values are literal: `${` would read as a template reference on replay, so it becomes `$${`. */
export function escapeTemplates<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('${', '$${') as T;
  if (Array.isArray(value)) return value.map((item: unknown) => escapeTemplates(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeTemplates(v)])) as T;
  }
  return value;
}
