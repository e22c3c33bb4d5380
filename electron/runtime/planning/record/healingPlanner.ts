import type { Playbook, Step } from '../../../contract/index.js';
import type { Planner, PlannerDecision, PlannerState } from '../planner.js';
import { planStepIdOf } from '../playbook/referenceRules.js';
import { healStep, type Healer } from './healStep.js';

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;

/** What a replay needs besides the playbook's own planner. */
export interface HealingPlannerOptions {
  playbook: Playbook;
  /** Plans the recorded steps (a PlaybookPlanner over the same playbook). */
  steps: Planner;
  /** Resolved at the first failing step, so a replay that needs no model never builds one. */
  healer: () => Healer;
}

/**
 * Replays a recorded playbook with no model; when a step fails (its expectation, or the call),
 * the model is asked for that step only and its replacement calls run in its place, then the
 * playbook continues. Replacements take plan positions after the playbook's own (fresh
 * idempotency keys); the last one carries the failed step's id, which marks the step done.
 */
export class HealingPlanner implements Planner {
  readonly kind = 'replay';
  /** Playbook positions (0-based) the model was called for. */
  readonly healed: number[] = [];
  private queue: CallDecision[] = [];
  private issued: number[] = [];
  private readonly rounds = new Map<number, number>();
  private readonly positionOf: ReadonlyMap<string, number>;

  constructor(private readonly options: HealingPlannerOptions) {
    this.positionOf = new Map(options.playbook.steps.map((step, i) => [planStepIdOf(step, i), i]));
  }

  async next(state: PlannerState, signal: AbortSignal): Promise<PlannerDecision> {
    const latest = state.latest ?? latestOf(state.steps);
    const interrupted = this.unfinishedReplacement(latest);
    if (interrupted) return interrupted;
    if (this.issued.some((index) => latest.get(index)?.status === 'failed')) this.queue = [];
    const queued = this.queue.shift();
    if (queued) return queued;
    const view = this.withReplacements(latest);
    const position = this.firstUnfinished(view);
    if (position !== undefined && view.get(position)?.status === 'failed') return this.heal(position, view, state, signal);
    const decision = await this.options.steps.next({ ...state, latest: view }, signal);
    // A failed step comes back here (to heal) instead of failing the task.
    return decision.type === 'call' ? { ...decision, continueOnError: true } : decision;
  }

  private async heal(
    position: number,
    view: ReadonlyMap<number, Step>,
    state: PlannerState,
    signal: AbortSignal,
  ): Promise<PlannerDecision> {
    const { playbook } = this.options;
    const failed = view.get(position)!;
    const planned = playbook.steps[position]!;
    const label = `step ${position + 1} (${planned.tool ?? planned.capability})`;
    const rounds = (this.rounds.get(position) ?? 0) + 1;
    const maxRounds = playbook.heal?.maxRounds ?? 2;
    if (rounds > maxRounds) return { type: 'fail', reason: `${label} still fails after ${maxRounds} healing rounds: ${failed.error}` };
    this.rounds.set(position, rounds);
    this.healed.push(position);
    const result = await healStep(
      this.options.healer(),
      {
        goal: playbook.goal ?? playbook.description ?? playbook.name,
        position,
        total: playbook.steps.length,
        planned,
        failed,
        remaining: playbook.steps.slice(position + 1),
      },
      signal,
    );
    if (result.kind === 'fail')
      return { type: 'fail', reason: `${label} failed on replay (${failed.error}); ${result.reason}`, usage: result.usage };
    const first = nextIndex(state, playbook.steps.length);
    const id = planStepIdOf(planned, position);
    const decisions = result.calls.map((call, k): CallDecision => ({
      type: 'call',
      index: first + k,
      ...(k === result.calls.length - 1 && { planStepId: id }),
      title: `healing ${label}`,
      tool: call.tool,
      args: call.args,
      expect: [],
      retries: 0,
      continueOnError: true,
    }));
    this.issued = decisions.map((d) => d.index);
    this.queue = decisions.slice(1);
    return { ...decisions[0]!, usage: result.usage };
  }

  /** The recorded state, with each healed step's position showing its completed replacement. */
  private withReplacements(latest: ReadonlyMap<number, Step>): ReadonlyMap<number, Step> {
    const view = new Map(latest);
    const count = this.options.playbook.steps.length;
    for (const step of latest.values()) {
      if (step.index < count || step.status !== 'completed' || step.planStepId === undefined) continue;
      const position = this.positionOf.get(step.planStepId);
      if (position !== undefined) view.set(position, { ...step, index: position });
    }
    return view;
  }

  private firstUnfinished(view: ReadonlyMap<number, Step>): number | undefined {
    for (let i = 0; i < this.options.playbook.steps.length; i++) {
      const status = view.get(i)?.status;
      if (status !== 'completed' && status !== 'skipped') return i;
    }
    return undefined;
  }

  /** A replacement left waiting or interrupted (e.g. by a restart) is planned again as recorded. */
  private unfinishedReplacement(latest: ReadonlyMap<number, Step>): CallDecision | undefined {
    const count = this.options.playbook.steps.length;
    for (const step of latest.values()) {
      if (step.index < count) continue;
      if (step.status !== 'started' && step.status !== 'waiting_approval' && step.status !== 'uncertain') continue;
      return {
        type: 'call',
        index: step.index,
        ...(step.planStepId !== undefined && { planStepId: step.planStepId }),
        tool: step.tool,
        args: (step.args ?? {}) as Record<string, unknown>,
        expect: [],
        retries: 0,
        continueOnError: true,
      };
    }
    return undefined;
  }
}

function nextIndex(state: PlannerState, floor: number): number {
  let max = floor - 1;
  for (const step of state.steps) max = Math.max(max, step.index);
  return max + 1;
}

function latestOf(steps: readonly Step[]): Map<number, Step> {
  const map = new Map<number, Step>();
  for (const step of steps) {
    const seen = map.get(step.index);
    if (!seen || step.attempt >= seen.attempt) map.set(step.index, step);
  }
  return map;
}
