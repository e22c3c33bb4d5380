import {
  AcceptanceCheckSchema,
  type AcceptanceCheck,
  type Playbook,
  type PlaybookStep,
  type Step,
  type StepExpectation,
} from '../../../contract/index.js';
import { AgentDeskError, describeIssues } from '../../errors.js';
import type { Planner, PlannerDecision, PlannerState } from '../planner.js';
import { readableIssues } from './issues.js';
import { planStepIdOf } from './referenceRules.js';
import { findReferences, resolveTemplates, type TemplateScope } from './template.js';

export { planStepIdOf } from './referenceRules.js';

/** Statuses after which a playbook step is behind us. */
const FINISHED = new Set<Step['status']>(['completed', 'skipped']);

/**
 * Runs a playbook with no model: the next step is the first one whose latest attempt is not
 * completed or skipped. Decisions depend only on the recorded state, so re-planning after a
 * crash gives the same call.
 */
export class PlaybookPlanner implements Planner {
  readonly kind = 'playbook';

  /** Scan start for the live step log it was computed on: a finished step never becomes unfinished. */
  private resume: { log: ReadonlyMap<number, Step>; index: number } | undefined;
  /** Per step, the ids of the steps its templates read (so a scope holds only those outputs). */
  private readonly reads: ReadonlySet<string>[];

  constructor(private readonly playbook: Playbook) {
    this.reads = playbook.steps.map(
      (step) => new Set(findReferences([step.title, step.args, step.expect]).flatMap((r) => (r.root === 'steps' && r.id ? [r.id] : []))),
    );
  }

  async next(state: PlannerState, signal: AbortSignal): Promise<PlannerDecision> {
    signal.throwIfAborted();
    const latest = state.latest ?? latestAttempts(state.steps);
    let index = state.latest !== undefined && this.resume?.log === state.latest ? this.resume.index : 0;
    while (index < this.playbook.steps.length && isFinished(latest.get(index), this.playbook.steps[index]!)) index++;
    if (state.latest) this.resume = { log: state.latest, index };
    const step = this.playbook.steps[index];
    if (step === undefined) return { type: 'done' };
    const planStepId = planStepIdOf(step, index);
    try {
      const scope = scopeFromState(this.playbook, state, this.reads[index]);
      return {
        type: 'call',
        index,
        planStepId,
        ...(step.title === undefined ? {} : { title: String(resolveTemplates(step.title, scope, ['title'])) }),
        ...(step.tool === undefined ? {} : { tool: step.tool }),
        ...(step.capability === undefined ? {} : { capability: step.capability }),
        args: resolveTemplates(step.args, scope, ['args']),
        expect: resolveTemplates(step.expect, scope, ['expect']) as StepExpectation[],
        retries: step.retries,
        ...(step.onDeny !== undefined && { onDeny: step.onDeny }),
      };
    } catch (error) {
      // A step whose inputs cannot be known (e.g. it uses a skipped step's output) cannot run.
      if (!(error instanceof AgentDeskError) || error.code !== 'invalid_params') throw error;
      const reason = (error.details as { reason?: string } | undefined)?.reason;
      return { type: 'fail', reason: `step "${planStepId}": ${error.message}${reason ? ` (${reason})` : ''}` };
    }
  }
}

/**
 * The template scope of a task: inputs (playbook defaults under the given values), outputs of
 * completed steps by plan step id, services from `env.services`, the workspace and the task id.
 */
export function scopeFromState(playbook: Playbook, state: PlannerState, only?: ReadonlySet<string>): TemplateScope {
  const steps: Record<string, { output: unknown }> = {};
  const latest = state.latest ?? latestAttempts(state.steps);
  const indices = only ? [...only].map((id) => indexOfStep(playbook, id)) : [...latest.keys()];
  for (const index of indices) {
    const step = index === undefined ? undefined : latest.get(index);
    const planned = index === undefined ? undefined : playbook.steps[index];
    if (step?.status !== 'completed' || planned === undefined) continue;
    steps[step.planStepId ?? planStepIdOf(planned, step.index)] = { output: step.output };
  }
  return {
    inputs: { ...inputDefaults(playbook), ...state.inputs },
    steps,
    services: servicesFrom(state.env.services),
    workspace: state.task.workspace,
    task: { id: state.task.id },
  };
}

/**
 * The playbook's acceptance checks with templates resolved, re-validated since a reference may
 * have produced a value the check does not accept. Throws AgentDeskError('invalid_params').
 */
export function resolveAcceptance(playbook: Playbook, scope: TemplateScope): AcceptanceCheck[] {
  return playbook.acceptance.map((check, i) => {
    const resolved = resolveTemplates(check, scope, ['acceptance', i]);
    const parsed = AcceptanceCheckSchema.safeParse(resolved);
    if (parsed.success) return parsed.data;
    const issues = readableIssues(parsed.error.issues, resolved, ['acceptance', i]);
    throw new AgentDeskError('invalid_params', `acceptance[${i}] is invalid after templates:\n${describeIssues(issues)}`, {
      issues,
    });
  });
}

const stepIndexes = new WeakMap<Playbook, Map<string, number>>();

/** The plan index of a step id (ids are unique within a valid playbook). */
function indexOfStep(playbook: Playbook, id: string): number | undefined {
  let map = stepIndexes.get(playbook);
  if (!map) {
    map = new Map(playbook.steps.map((step, i) => [planStepIdOf(step, i), i]));
    stepIndexes.set(playbook, map);
  }
  return map.get(id);
}

/** A step denied by a person or a PreToolUse hook is behind us only when the playbook says `onDeny: continue`. */
function isFinished(step: Step | undefined, planned: PlaybookStep): boolean {
  if (step === undefined) return false;
  const answered = step.approvalId !== undefined || step.policy?.source === 'hook';
  return FINISHED.has(step.status) || (step.status === 'denied' && planned.onDeny === 'continue' && answered);
}

/** The highest attempt recorded per plan index (the later record wins a tie). */
function latestAttempts(steps: readonly Step[]): Map<number, Step> {
  const latest = new Map<number, Step>();
  for (const step of steps) {
    const seen = latest.get(step.index);
    if (seen === undefined || step.attempt >= seen.attempt) latest.set(step.index, step);
  }
  return latest;
}

function inputDefaults(playbook: Playbook): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(playbook.inputs).flatMap(([name, input]) => (input.default === undefined ? [] : [[name, input.default]])),
  );
}

/** Keeps only well-formed `{name: {url}}` entries from the runtime's environment. */
function servicesFrom(value: unknown): Record<string, { url: string }> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([name, service]) => {
      const url = (service as { url?: unknown } | null)?.url;
      return typeof url === 'string' ? [[name, { url }]] : [];
    }),
  );
}
