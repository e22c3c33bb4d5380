/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (incubating), spelled here so
 * the runtime depends on `@opentelemetry/api` only; a unit test checks each against
 * `@opentelemetry/semantic-conventions/incubating`.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  outputType: 'gen_ai.output.type',
} as const;

/** `gen_ai.operation.name` values used here. */
export const GEN_AI_OPERATION = { invokeAgent: 'invoke_agent', chat: 'chat', executeTool: 'execute_tool' } as const;

/** General attributes of the OpenTelemetry conventions used on spans. */
export const OTEL = { errorType: 'error.type', serverAddress: 'server.address', serverPort: 'server.port' } as const;

/** Agent Desk's own attributes, for what the GenAI conventions do not name. */
export const AGENT_DESK = {
  taskId: 'agent_desk.task.id',
  taskKind: 'agent_desk.task.kind',
  taskState: 'agent_desk.task.state',
  taskStateReason: 'agent_desk.task.state_reason',
  taskResumed: 'agent_desk.task.resumed',
  taskSteps: 'agent_desk.task.steps',
  taskCostUsd: 'agent_desk.task.cost_usd',
  stepId: 'agent_desk.step.id',
  stepIndex: 'agent_desk.step.index',
  stepAttempt: 'agent_desk.step.attempt',
  stepStatus: 'agent_desk.step.status',
  stepError: 'agent_desk.step.error',
  stepReadOnly: 'agent_desk.step.read_only',
  toolTier: 'agent_desk.tool.tier',
  routeReason: 'agent_desk.route.reason',
  routeAttempts: 'agent_desk.route.attempts',
  policyEffect: 'agent_desk.policy.effect',
  policyReason: 'agent_desk.policy.reason',
  policyRule: 'agent_desk.policy.rule',
  modelAdapter: 'agent_desk.model.adapter',
  costUsd: 'agent_desk.cost_usd',
} as const;

/** Span event names (approvals and checks happen inside a step or a task). */
export const AGENT_DESK_EVENT = {
  approvalRequested: 'agent_desk.approval.requested',
  approvalApproved: 'agent_desk.approval.approved',
  approvalDenied: 'agent_desk.approval.denied',
  approvalCancelled: 'agent_desk.approval.cancelled',
  checkResult: 'agent_desk.check.result',
  transition: 'agent_desk.task.transition',
} as const;
