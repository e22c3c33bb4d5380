import type { ApprovalPreview, CheckResult, ServerText, ServerTextParam } from '../../contract/index.js';
import { REVIEW_REASON } from '../planning/llm/goalPlanner.js';

/**
 * Why a task is in its state: the English the CLI, logs and older clients read, and the same
 * sentence as a catalog code the UI renders in its reader's language.
 */
export interface StateReason {
  reason: string;
  text: ServerText;
}

/** A transition's reason: coded, or plain English (a reason no catalog holds yet). */
export type AnyStateReason = string | StateReason;

/** Splits a reason into the English and, when it has one, its code. */
export function reasonParts(reason: AnyStateReason): { reason: string; text?: ServerText } {
  return typeof reason === 'string' ? { reason } : reason;
}

function coded(reason: string, code: string, params: Record<string, ServerTextParam> = {}, detail?: string): StateReason {
  return { reason, text: { code, params, ...(detail !== undefined && { detail }) } };
}

/** Where a step sits, as the reasons name it: its number and tool. */
interface StepRef {
  index: number;
  tool: string;
}
const stepParams = (step: StepRef) => ({ step: step.index + 1, tool: step.tool });
const stepWords = (step: StepRef) => `step ${step.index + 1} (${step.tool})`;

/** A preview's summary as a text: its own code, else the English as a detail. */
function summaryText(preview: ApprovalPreview): ServerText {
  return preview.summaryText ?? { code: 'text.verbatim', params: {}, detail: preview.summary };
}

/** What a PreToolUse hook's script said, without the prefix the runtime put before it. */
function hookWords(hookReason: string): string {
  return hookReason.replace(/^PreToolUse hook: /, '');
}

/** A step's error in English and as a code, spread into the step record (`{ error, errorText }`). */
export function stepError(why: StateReason): { error: string; errorText: ServerText } {
  return { error: why.reason, errorText: why.text };
}

/** The step errors in the runtime's own words (`step.*`); a tool's own error message has no code. */
export const stepErrors = {
  // A reason with no code (a skill's, a profile's) follows as machine words, shown verbatim.
  deniedByPolicy: (policyReason: string, policyTexts: ServerText[] | undefined) =>
    policyTexts?.length
      ? coded(`denied by policy: ${policyReason}`, 'step.deniedByPolicy', { why: policyTexts })
      : coded(`denied by policy: ${policyReason}`, 'step.deniedByPolicyUncoded', {}, policyReason),
  // A hook's reason is its script's own words ("PreToolUse hook: …"): shown verbatim after the coded part.
  deniedByHook: (hookReason: string) => coded(`denied by ${hookReason}`, 'step.deniedByHook', {}, hookWords(hookReason)),
  decided: (status: 'denied' | 'cancelled', who: string | undefined, why: string | undefined) =>
    coded(
      `${status} by ${who ?? 'user'}${why ? `: ${why}` : ''}`,
      status === 'denied' ? 'step.deniedBy' : 'step.cancelledBy',
      { who: who ?? 'user' },
      why || undefined,
    ),
  deniedByUser: (why: string | undefined) =>
    why?.trim()
      ? coded(`denied by the user: ${why.trim()}`, 'step.deniedByUser', {}, why.trim())
      : coded('denied by the user: no reason given', 'step.deniedByUserNoReason'),
  failedByUser: () => coded('failed by the user after an interruption', 'step.failedByUser'),
  skippedByUser: () => coded('skipped by the user after an interruption', 'step.skippedByUser'),
  interruptedUncertain: () => coded('interrupted while running; the effect may or may not have happened', 'step.interruptedUncertain'),
  abortedCancelled: () => coded('aborted: the task was cancelled', 'step.abortedCancelled'),
  cancelledWhileWaiting: () => coded('not run: the task was cancelled while this step waited for approval', 'step.cancelledWhileWaiting'),
  abortedUncertain: () => coded('aborted while running: the effect may or may not have happened', 'step.abortedUncertain'),
  superseded: () => coded('superseded: the arguments changed after the approval was requested', 'step.superseded'),
};

/** The state reasons the engine writes, each with its catalog code (`state.*`). */
export const stateReasons = {
  runStarted: () => coded('run started', 'state.runStarted'),
  planReady: () => coded('plan ready', 'state.planReady'),
  resumed: () => coded('resumed', 'state.resumed'),
  resumedAfterInterruption: () => coded('resumed after an interruption', 'state.resumedAfterInterruption'),
  retrying: () => coded('retrying', 'state.retrying'),
  approvalNeeded: (preview: ApprovalPreview) =>
    coded(`approval needed: ${preview.summary}`, 'state.approvalNeeded', { summary: summaryText(preview) }),
  approvedBy: (who: string | undefined) => coded(`approved by ${who ?? 'user'}`, 'state.approvedBy', { who: who ?? 'user' }),
  /** A step ended by an approval's denial or cancellation: `error` is the step's own words. */
  stepDecided: (step: StepRef, status: 'denied' | 'cancelled', who: string | undefined, why: string | undefined) =>
    coded(
      `${stepWords(step)} ${status} by ${who ?? 'user'}${why ? `: ${why}` : ''}`,
      status === 'denied' ? 'state.stepDeniedBy' : 'state.stepCancelledBy',
      { ...stepParams(step), who: who ?? 'user' },
      why || undefined,
    ),
  stepDeniedByUser: (step: StepRef, why: string | undefined) =>
    why?.trim()
      ? coded(`${stepWords(step)} denied by the user: ${why.trim()}`, 'state.stepDeniedByUser', stepParams(step), why.trim())
      : coded(`${stepWords(step)} denied by the user: no reason given`, 'state.stepDeniedByUserNoReason', stepParams(step)),
  stepDeniedByPolicy: (step: StepRef, policyReason: string, policyTexts: ServerText[] | undefined) =>
    policyTexts?.length
      ? coded(`${stepWords(step)} denied by policy: ${policyReason}`, 'state.stepDeniedByPolicy', { ...stepParams(step), why: policyTexts })
      : coded(`${stepWords(step)} denied by policy: ${policyReason}`, 'state.stepDeniedByPolicyUncoded', stepParams(step), policyReason),
  stepDeniedByHook: (step: StepRef, hookReason: string) =>
    coded(`${stepWords(step)} denied by ${hookReason}`, 'state.stepDeniedByHook', stepParams(step), hookWords(hookReason)),
  goalBlockedByHook: (hookReason: string) =>
    coded(`the goal was blocked by a ${hookReason}`, 'state.goalBlockedByHook', {}, hookReason.replace(/^UserPromptSubmit hook: /, '')),
  stepFailed: (step: StepRef, error: string) => coded(`${stepWords(step)} failed: ${error}`, 'state.stepFailed', stepParams(step), error),
  stepRetry: (step: StepRef, attempt: number, error: string | undefined) =>
    coded(`${stepWords(step)} failed, retry ${attempt}: ${error}`, 'state.stepRetry', { ...stepParams(step), attempt }, error),
  stepCannotRun: (step: StepRef, message: string) =>
    coded(`${stepWords(step)} cannot run: ${message}`, 'state.stepCannotRun', stepParams(step), message),
  stepFailedByUser: (step: StepRef) =>
    coded(`${stepWords(step)} failed by the user after an interruption`, 'state.stepFailedByUser', stepParams(step)),
  stepUncertain: (step: StepRef, message?: string) =>
    coded(
      `${stepWords(step)} was interrupted and may or may not have taken effect${message ? ` (${message})` : ''}: choose rerun, skip or fail`,
      'state.stepUncertain',
      stepParams(step),
      message,
    ),
  secretMissing: (name: string) =>
    coded(
      `secret input "${name}" is not stored: resume with --input ${name}=… or AGENT_DESK_INPUT_${name.toUpperCase()}`,
      'state.secretMissing',
      { name, env: `AGENT_DESK_INPUT_${name.toUpperCase()}` },
    ),
  /** The planner waits: for the review of its proposed checks, or its model (the provider's words). */
  plannerWaits: (reason: string) =>
    reason === REVIEW_REASON ? coded(reason, 'state.reviewChecks') : coded(reason, 'text.verbatim', {}, reason),
  runtimeError: (message: string) => coded(`runtime error: ${message}`, 'state.runtimeError', {}, message),
  plannerGaveUp: (why: string) => coded(`planner gave up: ${why}`, 'state.plannerGaveUp', {}, why),
  /** A pause or cancel: the runtime's own words are coded, a client's own reason is shown as it was given. */
  control: (control: 'pause' | 'cancel', reason: string | null): StateReason => {
    if (reason === null) return coded(`${control} requested`, control === 'pause' ? 'state.pauseRequested' : 'state.cancelRequested');
    if (reason === 'paused by the user') return coded(reason, 'state.pausedByUser');
    if (reason === 'cancelled by the user') return coded(reason, 'state.cancelledByUser');
    return coded(reason, 'text.verbatim', {}, reason);
  },
  checksFailed: (failed: readonly CheckResult[]) =>
    coded(`acceptance check failed: ${failed.map((r) => `${r.name} (${r.output})`).join('; ')}`, 'state.checksFailed', {
      checks: failed.map((r) => ({
        code: 'state.checkOutcome',
        params: { name: r.nameText ?? r.name, output: r.outputText ?? { code: 'text.verbatim', params: {}, detail: r.output } },
      })),
    }),
  checksPassed: (count: number) =>
    count
      ? coded(`all ${count} acceptance checks passed`, 'state.checksPassed', { count })
      : coded('all steps completed; no acceptance checks declared', 'state.noChecks'),
  loopDetected: (tool: string, repeats: number) =>
    coded(`loop detected: ${tool} repeated ${repeats} times with the same arguments and result`, 'state.loopDetected', { tool, repeats }),
  toolAsks: (source: string, message: string) => coded(`${source} asks: ${message}`, 'state.toolAsks', { source }, message),
  userAnswered: (source: string, action: string) =>
    coded(`the user answered ${source} (${action})`, 'state.userAnswered', { source, action }),
};
