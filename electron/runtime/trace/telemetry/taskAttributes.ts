import { SpanStatusCode, type AttributeValue, type Span } from '@opentelemetry/api';
import type { Task } from '../../../contract/index.js';
import type { Redactor } from '../redactor.js';
import { AGENT_DESK, AGENT_DESK_EVENT, GEN_AI, GEN_AI_OPERATION, OTEL } from './genAiAttributes.js';
import { contentText, reasonText, setRedacted } from './spanContent.js';

/** The agent a task runs as, for `gen_ai.agent.name` (tasks without one run as `agent-desk`). */
export const agentNameOf = (task: Pick<Task, 'agent'>): string => task.agent ?? 'agent-desk';

/** The name of a task's span, as the GenAI conventions spell it. */
export const invokeAgentName = (agent: string): string => `${GEN_AI_OPERATION.invokeAgent} ${agent}`;

/** What a task span says from its first sight: the agent, the task (= conversation) id, the model asked for, the goal with `captureContent`. */
export function taskStartAttributes(
  task: Task,
  resumed: boolean,
  redactor: Redactor,
  captureContent: boolean,
): Record<string, AttributeValue | undefined> {
  const goal = task.plan.kind === 'goal' ? task.plan : undefined;
  return {
    [GEN_AI.operationName]: GEN_AI_OPERATION.invokeAgent,
    [GEN_AI.agentName]: agentNameOf(task),
    ...(task.agent !== undefined && { [GEN_AI.agentId]: task.agent }),
    [GEN_AI.conversationId]: task.id,
    [GEN_AI.requestModel]: goal?.model,
    [AGENT_DESK.taskId]: task.id,
    [AGENT_DESK.taskKind]: task.plan.kind,
    [AGENT_DESK.taskResumed]: resumed,
    ...(captureContent &&
      goal && {
        [GEN_AI.inputMessages]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: contentText(goal.goal, redactor) }] }]),
      }),
  };
}

/** A task that ended (or a process that closes while it waits): state, usage, checks as events, the answer with `captureContent`. */
export function applyTaskEnd(span: Span, task: Task, redactor: Redactor, captureContent: boolean, endTime: number): void {
  setRedacted(span, redactor, {
    [AGENT_DESK.taskState]: task.state,
    [AGENT_DESK.taskStateReason]: task.stateReason && reasonText(task.stateReason, redactor, captureContent),
    [GEN_AI.usageInputTokens]: task.usage.tokensIn,
    [GEN_AI.usageOutputTokens]: task.usage.tokensOut,
    [AGENT_DESK.taskSteps]: task.usage.steps,
    [AGENT_DESK.taskCostUsd]: task.usage.costUsd,
    ...(captureContent &&
      task.answer !== undefined && {
        [GEN_AI.outputMessages]: JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: contentText(task.answer, redactor) }], finish_reason: 'stop' },
        ]),
      }),
  });
  // A check's name may be the model's words (proposed checks): it is content, like its output.
  task.checks.forEach((check, index) => {
    span.addEvent(
      AGENT_DESK_EVENT.checkResult,
      {
        'agent_desk.check.index': index,
        'agent_desk.check.type': check.type,
        'agent_desk.check.passed': check.passed,
        'agent_desk.check.duration_ms': check.durationMs,
        ...(captureContent && {
          'agent_desk.check.name': contentText(check.name, redactor),
          'agent_desk.check.output': contentText(check.output, redactor),
        }),
      },
      endTime,
    );
  });
  if (task.state === 'succeeded') span.setStatus({ code: SpanStatusCode.OK });
  else if (task.state === 'failed') {
    setRedacted(span, redactor, { [OTEL.errorType]: 'task_failed' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: reasonText(task.stateReason ?? 'failed', redactor, captureContent) });
  }
}
