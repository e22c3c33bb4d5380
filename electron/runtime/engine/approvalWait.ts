import type { Step } from '../../contract/index.js';
import { isoAt } from '../clock.js';
import { AgentDeskError } from '../errors.js';
import type { EffectHeldError } from '../policy/effects/heldEffects.js';
import type { PlannerDecision } from '../planning/planner.js';
import type { EngineDeps } from './engineDeps.js';
import type { RunControl, RunView } from './runView.js';
import { stateReasons, stepError, stepErrors } from './stateReasons.js';
import type { StepRecorder } from './stepRecorder.js';

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;

/** How an approval wait ended: run the call, let the planner read the denial, or stop the run. */
export type ApprovalVerdict = 'approved' | 'denied' | 'stopped';

/**
 * Waits for the step's approval. A denial fails the task with the reason recorded, unless the
 * decision says `onDeny: continue` (model planners, playbook steps that opt in): then the step
 * is recorded denied and the task runs on (→ 'denied'). `recorder` is the executor's own, so
 * writes it holds for the step land before the decision.
 */
export async function awaitApproval(
  deps: EngineDeps,
  run: RunView & RunControl,
  recorder: StepRecorder,
  step: Step,
  decision: CallDecision,
): Promise<ApprovalVerdict> {
  const id = step.approvalId!;
  for (;;) {
    const approval = await deps.approvals.get(id);
    if (!approval) throw new AgentDeskError('internal', `approval ${id} of step ${step.id} is missing`);
    if (approval.status === 'approved') {
      if (run.task().state === 'waiting_approval') await run.transition('running', stateReasons.approvedBy(approval.decidedBy));
      return 'approved';
    }
    if (approval.status === 'denied' && decision.onDeny === 'continue')
      return deniedAndContinue(deps, run, recorder, step, approval.decisionReason);
    if (approval.status === 'denied' || approval.status === 'cancelled') {
      const error = stepError(stepErrors.decided(approval.status, approval.decidedBy, approval.decisionReason));
      await recorder.saveStep({ ...step, status: 'denied', ...error, endedAt: isoAt(deps.clock.now()) });
      if (approval.status === 'denied')
        await run.fail(stateReasons.stepDecided(step, 'denied', approval.decidedBy, approval.decisionReason));
      return 'stopped';
    }
    if ((await run.honourControl()) === 'stopped') return 'stopped';
    if (run.task().state !== 'waiting_approval') await run.transition('waiting_approval', stateReasons.approvalNeeded(approval.preview));
    if (run.detachOnApproval) return 'stopped';
    await deps.approvals.changed(id, deps.pollMs, run.signal);
    if (run.signal.aborted && (await run.honourControl()) === 'stopped') return 'stopped';
  }
}

/** The planner reads the step's error as the tool's answer, in the words a person would use. */
async function deniedAndContinue(
  deps: EngineDeps,
  run: RunView & RunControl,
  recorder: StepRecorder,
  step: Step,
  reason: string | undefined,
): Promise<'denied'> {
  await recorder.saveStep({ ...step, status: 'denied', ...stepError(stepErrors.deniedByUser(reason)), endedAt: isoAt(deps.clock.now()) });
  if (run.task().state === 'waiting_approval') await run.transition('running', stateReasons.stepDeniedByUser(step, reason));
  return 'denied';
}

/**
 * The page sent requests the browser held before they left: the step waits for an approval of
 * exactly them (method, URL, masked fields, marked screenshot); the caller runs it again with
 * them allowed once when approved.
 */
export async function holdForEffects(
  deps: EngineDeps,
  run: RunView & RunControl,
  recorder: StepRecorder,
  step: Step,
  held: EffectHeldError,
): Promise<Step> {
  const policy = held.decision();
  const approval = deps.approvals.prepare({
    taskId: step.taskId,
    stepId: step.id,
    tool: step.tool,
    subject: held.effects[0]?.url ?? '',
    args: step.args,
    decision: policy,
    preview: held.preview,
    ...(run.task().owner && { owner: run.task().owner }),
  });
  const approvalId = approval.approval.id;
  const waiting: Step = { ...step, status: 'waiting_approval', approvalId, policy };
  await recorder.saveStep(waiting, () => {
    recorder.trace('step.policy', { ...policy, approvalId }, step.id);
    void recorder.commit((tx) => approval.persist(tx)); // in the step's commit, after what happened before it
  });
  approval.announce();
  await run.transition('waiting_approval', stateReasons.approvalNeeded(held.preview));
  return waiting;
}
