import { SpanStatusCode, type AttributeValue, type Span } from '@opentelemetry/api';
import type { Approval, Step } from '../../../contract/index.js';
import type { Redactor } from '../redactor.js';
import { AGENT_DESK, AGENT_DESK_EVENT, GEN_AI, GEN_AI_OPERATION, OTEL } from './genAiAttributes.js';
import { contentText, reasonText, setRedacted } from './spanContent.js';

/** Step statuses after which the step's span ends. */
export const STEP_ENDED = new Set<Step['status']>(['completed', 'failed', 'denied', 'uncertain', 'skipped']);

/** The name of a step's span, as the GenAI conventions spell it. */
export const executeToolName = (tool: string): string => `${GEN_AI_OPERATION.executeTool} ${tool}`;

/** Attributes a step span starts with (a tool about to run, before its step record is seen). */
export function toolCallAttributes(
  tool: string,
  tier: string | undefined,
  stepId: string,
  taskId: string,
): Record<string, AttributeValue | undefined> {
  return {
    [GEN_AI.operationName]: GEN_AI_OPERATION.executeTool,
    [GEN_AI.toolName]: tool,
    [GEN_AI.toolType]: 'function',
    // The runtime's id of the call: one step is one tool call (retries are new steps).
    [GEN_AI.toolCallId]: stepId,
    [GEN_AI.conversationId]: taskId,
    [AGENT_DESK.stepId]: stepId,
    [AGENT_DESK.toolTier]: tier,
  };
}

/** What the step record says: tool, tier, route, policy decision, status; arguments and result with `captureContent`. */
export function applyStep(span: Span, step: Step, redactor: Redactor, captureContent: boolean): void {
  span.updateName(executeToolName(step.tool));
  setRedacted(span, redactor, {
    ...toolCallAttributes(step.tool, step.route?.tier, step.id, step.taskId),
    [AGENT_DESK.stepIndex]: step.index,
    [AGENT_DESK.stepAttempt]: step.attempt,
    [AGENT_DESK.stepStatus]: step.status,
    [AGENT_DESK.stepReadOnly]: step.readOnly,
    [AGENT_DESK.routeReason]: step.route && reasonText(step.route.reason, redactor, captureContent),
    [AGENT_DESK.routeAttempts]: step.route?.attempts.map((a) => `${a.tool} (${a.tier}): ${a.outcome}`),
    [AGENT_DESK.policyEffect]: step.policy?.effect,
    [AGENT_DESK.policyReason]: step.policy && reasonText(step.policy.reason, redactor, captureContent),
    [AGENT_DESK.policyRule]: step.policy?.rule,
    [AGENT_DESK.costUsd]: step.costUsd || undefined,
    ...(captureContent && { [GEN_AI.toolCallArguments]: contentText(step.args, redactor) }),
    ...(captureContent &&
      step.status === 'completed' &&
      step.output !== undefined && { [GEN_AI.toolCallResult]: contentText(step.output, redactor) }),
  });
}

/** A step that ended: its status on the span (a failure, denial or uncertain effect is an error with its reason). */
export function applyStepEnd(span: Span, step: Step, redactor: Redactor, captureContent: boolean): void {
  if (step.status === 'completed') {
    span.setStatus({ code: SpanStatusCode.OK });
    return;
  }
  if (step.status === 'skipped') return;
  const message = reasonText(step.error ?? step.status, redactor, captureContent);
  setRedacted(span, redactor, { [OTEL.errorType]: step.status === 'failed' ? 'tool_error' : step.status, [AGENT_DESK.stepError]: message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The span event of an approval's state: requested, approved, denied or cancelled (who and why, never the arguments). */
export function approvalEvent(
  approval: Approval,
  redactor: Redactor,
  captureContent: boolean,
): { name: string; attributes: Record<string, AttributeValue> } {
  const name =
    approval.status === 'pending'
      ? AGENT_DESK_EVENT.approvalRequested
      : approval.status === 'approved'
        ? AGENT_DESK_EVENT.approvalApproved
        : approval.status === 'denied'
          ? AGENT_DESK_EVENT.approvalDenied
          : AGENT_DESK_EVENT.approvalCancelled;
  const attributes: Record<string, AttributeValue> = {
    'agent_desk.approval.id': approval.id,
    'agent_desk.approval.risks': approval.risks,
    'agent_desk.approval.reason': reasonText(approval.reason, redactor, captureContent),
  };
  if (approval.remember) attributes['agent_desk.approval.remember'] = approval.remember;
  if (approval.decidedBy) attributes['agent_desk.approval.decided_by'] = redactor.text(approval.decidedBy);
  // What a person typed is content: exported only with capture on.
  if (approval.decisionReason && captureContent)
    attributes['agent_desk.approval.decision_reason'] = contentText(approval.decisionReason, redactor);
  return { name, attributes };
}
