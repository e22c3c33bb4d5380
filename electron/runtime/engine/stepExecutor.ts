import type { Step, ToolProgress } from '../../contract/index.js';
import { isoAt } from '../clock.js';
import { digestOf, quickDigestOf } from '../digest.js';
import { AgentDeskError } from '../errors.js';
import { checkExpectations } from '../planning/expectations.js';
import { resolveSecretRefs, SecretNotAllowedError } from '../secrets/secretRefs.js';
import type { PlannerDecision } from '../planning/planner.js';
import { describeRoute, type RouteCandidate } from '../tools/router.js';
import { ToolError } from '../tools/types.js';
import { approvedCallOf, EffectHeldError } from '../policy/effects/heldEffects.js';
import type { ToolHookVerdict } from '../hooks/hooks.js';
import { tightenWithHook } from '../hooks/tighten.js';
import { extend } from '../extend.js';
import type { EngineDeps } from './engineDeps.js';
import type { RunControl, RunView } from './runView.js';
import type { StepRecorder } from './stepRecorder.js';
import { StepWrites } from './stepWrites.js';
import { previewWithSafetyChecks, withSafetyChecks } from './safetyChecks.js';
import { askUser } from './askUser.js';
import { awaitApproval, holdForEffects } from './approvalWait.js';
import { deniedGoesBack, nextStepRecord, stepStartedData, withFallbackAttempt } from './stepRecord.js';
import type { QuestionInput } from './userQuestions.js';
import { stateReasons, stepError, stepErrors } from './stateReasons.js';

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;

/** What happened to one planned call. */
export type StepOutcome = { kind: 'completed'; step: Step } | { kind: 'retry' } | { kind: 'stop' };

/**
 * Gates, routes, executes and records one planned call, exactly once per idempotency key. It
 * reads and steers its run through `run` (RunView & RunControl) and writes through a
 * StepRecorder; one executor runs one call at a time (a concurrent batch gives each call its own).
 */
export class StepExecutor {
  private readonly writes: StepWrites;

  constructor(
    private readonly deps: EngineDeps,
    private readonly run: RunView & RunControl,
    recorder: StepRecorder,
  ) {
    this.writes = new StepWrites(recorder);
  }

  async execute(decision: CallDecision): Promise<StepOutcome> {
    const existing = this.run.latestStep(decision.index);
    let candidates: RouteCandidate[];
    let skipped;
    try {
      ({ candidates, skipped } = await this.deps.router.plan({
        ...(decision.tool !== undefined && { tool: decision.tool }),
        ...(decision.capability !== undefined && { capability: decision.capability }),
        args: decision.args,
        task: this.run.task(), // fallbacks only among tools the task's agent may use
      }));
    } catch (error) {
      return this.failUnroutable(decision, existing, error);
    }
    if (existing && (existing.status === 'started' || existing.status === 'waiting_approval')) {
      const recorded = candidates.find((c) => c.tool.name === existing.tool);
      if (existing.status === 'started' && !recorded && !(existing.readOnly || existing.idempotent)) {
        return this.recordedToolGone(existing, decision);
      }
      const same = recorded ?? candidates[0]!;
      if (existing.status === 'started' || this.sameArgs(existing, same)) return this.resume(existing, same, candidates, decision);
      await this.supersede(existing);
    }
    const primary = candidates[0]!;
    const refused = this.refusedSecretRefs(decision, primary, existing);
    if (refused) return refused;
    // Awaited only when a hook applies: a step with none takes no extra turn of the event loop.
    const hook = this.deps.hooks?.has('PreToolUse', primary.tool.name) ? await this.preToolHook(primary, decision) : undefined;
    const step = await this.gateNewStep(decision, primary, describeRoute(primary, skipped), existing, hook);
    if (step.status === 'denied') return deniedGoesBack(step, decision) ? { kind: 'retry' } : { kind: 'stop' };
    if (step.status === 'waiting_approval') return this.awaitApprovalThenRun(step, primary, candidates, decision);
    return this.runStep(step, candidates, decision, true);
  }

  // ---- gate -----------------------------------------------------------------------------------

  /** A `${secret:…}` that may not go where the call sends fails the call first: nobody is asked to approve a call that cannot run. */
  private refusedSecretRefs(decision: CallDecision, primary: RouteCandidate, previous: Step | undefined): Promise<StepOutcome> | undefined {
    const task = this.run.task();
    try {
      resolveSecretRefs(primary.tool, primary.args, {
        workspace: task.workspace,
        secrets: this.deps.secrets,
        redactor: this.deps.redactor,
      });
      return undefined;
    } catch (error) {
      if (!(error instanceof SecretNotAllowedError)) return undefined; // anything else surfaces when the call runs
      const now = this.deps.clock.now();
      const cls = primary.tool.classify(primary.args, { workspace: task.workspace });
      const step = nextStepRecord(task.id, decision, previous, {
        tool: primary.tool.name,
        args: primary.args,
        status: 'started',
        readOnly: cls.readOnly,
        idempotent: cls.idempotent,
        startedAt: isoAt(now),
      });
      return this.failed(step, error.message, now, decision, false);
    }
  }

  /** PreToolUse hooks for this call, when any applies (no spawn, no allocation otherwise). */
  private async preToolHook(candidate: RouteCandidate, decision: CallDecision): Promise<ToolHookVerdict | undefined> {
    const hooks = this.deps.hooks;
    if (!hooks?.has('PreToolUse', candidate.tool.name)) return undefined;
    return hooks.preToolUse(this.run.task(), { tool: candidate.tool.name, args: candidate.args, index: decision.index });
  }

  private async gateNewStep(
    decision: CallDecision,
    primary: RouteCandidate,
    route: Step['route'],
    previous: Step | undefined,
    hook?: ToolHookVerdict,
  ): Promise<Step> {
    const task = this.run.task();
    const cls = primary.tool.classify(primary.args, { workspace: task.workspace });
    const decided = await this.deps.gate.decide({
      taskId: task.id,
      tool: primary.tool.name,
      classification: cls,
      networkAllow: this.run.networkAllow(),
    });
    const policy = tightenWithHook(withSafetyChecks(decided, decision.safetyChecks), hook);
    const now = isoAt(this.deps.clock.now());
    const step = nextStepRecord(task.id, decision, previous, {
      tool: primary.tool.name,
      args: primary.args,
      status: policy.effect === 'allow' ? 'started' : policy.effect === 'ask' ? 'waiting_approval' : 'denied',
      readOnly: cls.readOnly,
      idempotent: cls.idempotent,
      ...(route && { route }),
      policy,
      startedAt: now,
    });
    if (policy.effect === 'deny') {
      const byHook = policy.source === 'hook';
      Object.assign(
        step,
        stepError(byHook ? stepErrors.deniedByHook(policy.reason) : stepErrors.deniedByPolicy(policy.reason, policy.reasonTexts)),
      );
      await this.writes.saveStep(step, () => this.writes.trace('step.policy', { ...policy }, step.id));
      const why = byHook
        ? stateReasons.stepDeniedByHook(step, policy.reason)
        : stateReasons.stepDeniedByPolicy(step, policy.reason, policy.reasonTexts);
      if (!deniedGoesBack(step, decision)) await this.run.fail(why);
      return step;
    }
    if (policy.effect === 'ask') {
      // Written in the run's queue with the step, so the trace keeps the order things happened in.
      const approval = this.deps.approvals.prepare({
        taskId: task.id,
        stepId: step.id,
        tool: step.tool,
        subject: cls.subject,
        args: primary.args,
        decision: policy,
        preview: previewWithSafetyChecks(cls.preview, decision.safetyChecks),
        ...(task.owner && { owner: task.owner }),
      });
      step.approvalId = approval.approval.id;
      await this.writes.saveStep(step, () => {
        this.writes.trace('step.policy', { ...policy, approvalId: approval.approval.id }, step.id);
        void this.writes.commit((tx) => approval.persist(tx)); // joins the step's commit
      });
      approval.announce();
      await this.run.transition('waiting_approval', stateReasons.approvalNeeded(cls.preview));
      return step;
    }
    return step; // the allow decision is traced with the `started` write (one commit)
  }

  private async awaitApprovalThenRun(
    step: Step,
    primary: RouteCandidate,
    all: RouteCandidate[],
    decision: CallDecision,
  ): Promise<StepOutcome> {
    const verdict = await awaitApproval(this.deps, this.run, this.writes, step, decision);
    if (verdict === 'denied') return { kind: 'retry' }; // the planner reads the denial and goes on
    if (verdict !== 'approved') return { kind: 'stop' };
    const onlyApproved = all.filter((c) => c === primary);
    return this.runStep({ ...step, status: 'started' }, onlyApproved, decision);
  }

  private async resume(existing: Step, same: RouteCandidate, all: RouteCandidate[], decision: CallDecision): Promise<StepOutcome> {
    if (existing.status === 'waiting_approval') return this.awaitApprovalThenRun(existing, same, all, decision);
    this.writes.trace(
      'step.started',
      {
        index: existing.index,
        tool: existing.tool,
        rerun: true,
        reason:
          existing.readOnly || existing.idempotent
            ? 'interrupted; safe to re-run (read-only or idempotent)'
            : 'interrupted; re-run as the user chose',
      },
      existing.id,
    );
    return this.runStep(existing, [same], decision);
  }

  // ---- execute ----------------------------------------------------------------------------

  private runStep(step: Step, candidates: RouteCandidate[], decision: CallDecision, tracePolicy = false): Promise<StepOutcome> {
    const runAll = () => this.runCandidates(step, candidates, decision, tracePolicy);
    const scope = this.deps.toolScope;
    const tier = candidates[0]?.tool.tier ?? 'api';
    return scope ? scope({ taskId: step.taskId, stepId: step.id, tool: step.tool, tier }, runAll) : runAll();
  }

  private async runCandidates(
    step: Step,
    candidates: RouteCandidate[],
    decision: CallDecision,
    tracePolicy: boolean,
  ): Promise<StepOutcome> {
    const task = this.run.task();
    const approved = step.approvalId === undefined ? undefined : approvedCallOf(await this.deps.approvals.get(step.approvalId));
    let current = step;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      const startedAt = this.deps.clock.now();
      current = { ...current, tool: candidate.tool.name, args: candidate.args, status: 'started', startedAt: isoAt(startedAt) };
      // Side effects are recorded `started` before they run; a read-only call has nothing to
      // protect, so its start is written together with its result (one commit instead of two).
      const withPolicy = tracePolicy && i === 0;
      if (current.readOnly) this.writes.holdStart(current.id, stepStartedData(current, candidate, withPolicy));
      else await this.saveStarted(current, candidate, withPolicy);
      try {
        // `${secret:name}` becomes its value only here, only toward its bound hosts; never stored so.
        const args = resolveSecretRefs(candidate.tool, candidate.args, {
          workspace: task.workspace,
          secrets: this.deps.secrets,
          redactor: this.deps.redactor,
        });
        const output = await candidate.tool.execute(args, {
          taskId: task.id,
          stepId: current.id,
          idempotencyKey: current.idempotencyKey,
          workspace: task.workspace,
          signal: this.run.signal,
          ...(approved && { approved }),
          progress: (p) => this.progressed(current, p),
          ...(this.deps.questions && {
            askUser: (q: QuestionInput) => {
              this.writes.writeHeldStarts();
              return askUser(this.deps, this.run, this.writes, current, q);
            },
          }),
        });
        return this.completed(current, output, startedAt, decision);
      } catch (error) {
        if (this.run.signal.aborted) return this.interrupted(current, startedAt);
        if (error instanceof EffectHeldError) return this.effectHeld(current, error, candidate, decision);
        const message = error instanceof Error ? error.message : String(error);
        const safeToRepeat = current.readOnly || current.idempotent;
        if (error instanceof ToolError && error.effectUnknown && !safeToRepeat) return this.uncertain(current, message, startedAt);
        const retryable = error instanceof ToolError && error.retryable;
        const next = candidates[i + 1];
        if (retryable && next && (await this.fallbackAllowed(next, decision))) {
          current = withFallbackAttempt(current, candidate, next, message);
          continue;
        }
        if (retryable && next) {
          return this.failed(current, `${message}; no fallback tool is allowed without a new approval`, startedAt, decision, false);
        }
        return this.failed(current, message, startedAt, decision, retryable || current.idempotent);
      }
    }
    throw new AgentDeskError('internal', `step ${step.index + 1} had no tool to run`);
  }

  /** Held page requests: ask for exactly them and, approved, run again with them allowed once. */
  private async effectHeld(step: Step, held: EffectHeldError, candidate: RouteCandidate, decision: CallDecision): Promise<StepOutcome> {
    const waiting = await holdForEffects(this.deps, this.run, this.writes, step, held);
    return this.awaitApprovalThenRun(waiting, candidate, [candidate], decision);
  }

  /** A running call reported progress: trace it and show it on the live step. */
  private progressed(step: Step, progress: ToolProgress): void {
    this.writes.writeHeldStarts(); // mid-call events come after the call's start
    this.writes.trace('tool.progress', { index: step.index, tool: step.tool, ...progress }, step.id);
    this.deps.emit('task.step', this.deps.redactor.value({ ...step, progress }));
  }

  /**
   * The call reached its server but the answer never came back (it died or hung mid-call): the
   * effect may have happened, so it is neither retried nor sent to a fallback. The task waits for
   * the user to choose rerun, skip or fail, as after a crash.
   */
  private async uncertain(step: Step, message: string, startedAt: number): Promise<StepOutcome> {
    const end = this.deps.clock.now();
    const error = `${message}; the effect may or may not have happened`;
    await this.writes.saveStep({ ...step, status: 'uncertain', error, endedAt: isoAt(end), durationMs: end - startedAt }, () =>
      this.writes.trace('step.uncertain', { index: step.index, tool: step.tool, idempotencyKey: step.idempotencyKey, error }, step.id),
    );
    await this.run.transition('waiting_user', stateReasons.stepUncertain(step, message));
    return { kind: 'stop' };
  }

  /** A side effect chosen to run again runs only where it ran before; that tool is gone now. */
  private recordedToolGone(step: Step, decision: CallDecision): Promise<StepOutcome> {
    const error = `${step.tool} cannot run this step again now, and it never runs on another tool (the effect may have happened there)`;
    return this.failed(step, error, this.deps.clock.now(), decision, false);
  }

  /** The call was aborted by a cancel: record what we know about its effect, then stop. */
  private async interrupted(step: Step, startedAt: number): Promise<StepOutcome> {
    const end = this.deps.clock.now();
    const safe = step.readOnly || step.idempotent;
    const coded = stepError(safe ? stepErrors.abortedCancelled() : stepErrors.abortedUncertain());
    const error = coded.error;
    await this.writes.saveStep(
      { ...step, status: safe ? 'failed' : 'uncertain', ...coded, endedAt: isoAt(end), durationMs: end - startedAt },
      () => this.writes.trace(safe ? 'step.failed' : 'step.uncertain', { index: step.index, tool: step.tool, error }, step.id),
    );
    await this.run.honourControl();
    return { kind: 'stop' };
  }

  /** A side effect's `started` record, written (with its trace) before the call runs. */
  private async saveStarted(step: Step, candidate: RouteCandidate, withPolicy: boolean): Promise<void> {
    await this.writes.saveStep(step, () => this.writes.trace('step.started', stepStartedData(step, candidate, withPolicy), step.id));
  }

  private async completed(step: Step, output: unknown, startedAt: number, decision: CallDecision): Promise<StepOutcome> {
    const end = this.deps.clock.now();
    const done: Step = extend(step, {
      status: 'completed' as const,
      output,
      outputDigest: quickDigestOf(output),
      endedAt: isoAt(end),
      durationMs: end - startedAt,
    });
    const failures = checkExpectations(output, decision.expect);
    if (failures.length > 0) return this.failed(done, `expectation failed: ${failures.join('; ')}`, startedAt, decision, step.idempotent);
    // A read-only call's start was never written on its own: one event tells both halves.
    const start = this.writes.takeHeldStart();
    this.run.countStep();
    await this.writes.saveStep(
      done,
      () => {
        this.writes.trace(
          'step.completed',
          extend(start ?? {}, {
            index: step.index,
            tool: step.tool,
            outputDigest: done.outputDigest,
            durationMs: done.durationMs,
            tokens: step.tokens,
            costUsd: step.costUsd,
          }),
          step.id,
        );
      },
      step.readOnly,
    );
    if (this.deps.hooks?.has('PostToolUse', step.tool)) await this.deps.hooks.postToolUse(this.run.task(), done);
    return { kind: 'completed', step: done };
  }

  private async failed(step: Step, error: string, startedAt: number, decision: CallDecision, canRetry: boolean): Promise<StepOutcome> {
    const end = this.deps.clock.now();
    const failed: Step = extend(step, { status: 'failed' as const, error, endedAt: isoAt(end), durationMs: end - startedAt });
    this.run.countStep();
    await this.writes.saveStep(failed, () => {
      this.writes.trace('step.failed', { index: step.index, attempt: step.attempt, tool: step.tool, error }, step.id);
    });
    if (canRetry && step.attempt <= decision.retries) return this.retryLater(failed);
    if (decision.continueOnError) return { kind: 'retry' }; // the planner reads the failure and decides
    await this.run.fail(stateReasons.stepFailed(step, error));
    return { kind: 'stop' };
  }

  private async retryLater(step: Step): Promise<StepOutcome> {
    await this.run.transition('retrying', stateReasons.stepRetry(step, step.attempt, step.error));
    await this.deps.clock.sleep(this.deps.retryBackoffMs * 2 ** (step.attempt - 1), this.run.signal).catch(() => undefined);
    if ((await this.run.honourControl()) === 'stopped') return { kind: 'stop' };
    await this.run.transition('running', stateReasons.retrying());
    return { kind: 'retry' };
  }

  /** A fallback tool runs only if the gate and its PreToolUse hooks allow it outright (an approval covered the first tool only). */
  private async fallbackAllowed(candidate: RouteCandidate, decision: CallDecision): Promise<boolean> {
    const task = this.run.task();
    const cls = candidate.tool.classify(candidate.args, { workspace: task.workspace });
    const gate = await this.deps.gate.decide({
      taskId: task.id,
      tool: candidate.tool.name,
      classification: cls,
      networkAllow: this.run.networkAllow(),
    });
    return gate.effect === 'allow' && (await this.preToolHook(candidate, decision)) === undefined;
  }

  private async failUnroutable(decision: CallDecision, previous: Step | undefined, error: unknown): Promise<StepOutcome> {
    const task = this.run.task();
    const message = error instanceof Error ? error.message : String(error);
    const now = isoAt(this.deps.clock.now());
    const step = nextStepRecord(task.id, decision, previous, {
      tool: decision.tool ?? decision.capability ?? '(none)',
      args: decision.args,
      status: 'failed',
      readOnly: true,
      idempotent: true,
      error: message,
      startedAt: now,
      endedAt: now,
    });
    await this.writes.saveStep(step, () =>
      this.writes.trace('step.failed', { index: step.index, tool: step.tool, error: message }, step.id),
    );
    const retryable = error instanceof AgentDeskError && error.code === 'unavailable';
    if (retryable && step.attempt <= decision.retries) return { kind: 'retry' };
    await this.run.fail(stateReasons.stepCannotRun({ index: decision.index, tool: step.tool }, message));
    return { kind: 'stop' };
  }

  /** An approval covers the exact arguments it showed; re-planned arguments must match them. */
  private sameArgs(step: Step, candidate: RouteCandidate): boolean {
    return digestOf(this.deps.redactor.value(candidate.args)) === digestOf(step.args);
  }

  private async supersede(step: Step): Promise<void> {
    const coded = stepError(stepErrors.superseded());
    const error = coded.error;
    const approvalId = step.approvalId;
    await this.writes.saveStep({ ...step, status: 'denied', ...coded, endedAt: isoAt(this.deps.clock.now()) }, () => {
      if (approvalId) void this.writes.commit((tx) => this.deps.approvals.cancelWithin(tx, approvalId, 'runtime (arguments changed)'));
      this.writes.trace('step.skipped', { index: step.index, tool: step.tool, reason: error }, step.id);
    });
  }
}
