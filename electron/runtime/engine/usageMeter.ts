import type { TaskState, Usage } from '../../contract/index.js';
import { isoAt, type Clock } from '../clock.js';
import type { PlannerUsage } from '../planning/planner.js';
import { emptyUsage } from './budgets.js';

/** How often the running usage is written between transitions (the step count is re-derived after a crash). */
const USAGE_WRITE_MS = 250;

/**
 * A run's usage: steps and model spend counted in memory (budgets read them here), wall time
 * measured without the time spent waiting for a person, and the row written at most every
 * USAGE_WRITE_MS through `persist` (a lazy write); every transition writes it exactly.
 */
export class UsageMeter {
  private usage: Usage = emptyUsage();
  private runStartedAt = 0;
  private wallAtStart = 0;
  /** Waiting for a person (approval, question) is not running time: when the current wait began… */
  private waitingSince: number | undefined;
  /** …and how long earlier waits of this run took. */
  private waitedMs = 0;
  private writtenAt = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly persist: (usage: Usage, at: string) => void,
  ) {}

  /** Wall time counts from here, on top of what earlier runs recorded. */
  start(recorded: Usage, state: TaskState): void {
    this.usage = recorded;
    this.runStartedAt = this.clock.now();
    this.wallAtStart = recorded.wallMs;
    this.waitedMs = 0;
    this.waitingSince = isWaitingForPerson(state) ? this.runStartedAt : undefined;
  }

  countStep(): void {
    this.usage = { ...this.usage, steps: this.usage.steps + 1 };
    this.persistSoon();
  }

  addPlanner(u: PlannerUsage | undefined): void {
    if (!u) return;
    const usage = this.usage;
    this.usage = {
      ...usage,
      modelCalls: usage.modelCalls + u.modelCalls,
      tokensIn: usage.tokensIn + u.tokensIn,
      tokensOut: usage.tokensOut + u.tokensOut,
      costUsd: usage.costUsd + u.costUsd,
    };
    this.persistSoon();
  }

  /** The usage as of now, wall time included. */
  now(): Usage {
    const now = this.clock.now();
    const waiting = this.waitedMs + (this.waitingSince === undefined ? 0 : now - this.waitingSince);
    return { ...this.usage, wallMs: this.wallAtStart + (now - this.runStartedAt - waiting) };
  }

  /** The task moved to `to`: a wait for a person starts or ends. */
  trackHumanWait(to: TaskState): void {
    const now = this.clock.now();
    if (isWaitingForPerson(to)) this.waitingSince ??= now;
    else if (this.waitingSince !== undefined) {
      this.waitedMs += now - this.waitingSince;
      this.waitingSince = undefined;
    }
  }

  private persistSoon(): void {
    const now = this.clock.now();
    if (now - this.writtenAt < USAGE_WRITE_MS) return;
    this.writtenAt = now;
    this.persist(this.now(), isoAt(now));
  }
}

/** States in which the task waits for a person: that time is not counted as running. */
function isWaitingForPerson(state: TaskState): boolean {
  return state === 'waiting_approval' || state === 'waiting_user';
}
