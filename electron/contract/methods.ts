import { z } from 'zod';
import { ApprovalDecisionSchema, ApprovalSchema, ApprovalStatusSchema } from './approval.js';
import { EVENT_NAMES, type EventName } from './events.js';
import { AgentMethods } from './agentMethods.js';
import { IntentMethods } from './intentMethods.js';
import { RecordMethods } from './recordMethods.js';
import { SettingsMethods } from './settingsMethods.js';
import { McpMethods } from './mcpMethods.js';
import { QuestionMethods } from './questionMethods.js';
import { MemoryMethods } from './memoryMethods.js';
import { SandboxMethods } from './sandboxMethods.js';
import { SchedulerMethods } from './schedulerMethods.js';
import { TokenMethods } from './tokens.js';
import { PeopleMethods } from './people.js';
import { GrantMethods } from './grantMethods.js';
import { SkillMethods } from './skillMethods.js';
import { SpendMethods } from './spend.js';
import type { MethodSpec } from './methodSpec.js';
import { StepSchema } from './step.js';
import { AgentNameSchema } from './agent.js';
import { AcceptanceCheckSchema } from './check.js';
import { BudgetLimitsSchema, SandboxModeSchema, TaskSchema, TaskStateSchema, UncertainResolutionSchema } from './task.js';
import { TaskEventSchema } from './taskEvent.js';
import { ToolDescriptorSchema } from './tool.js';
import { TraceEventSchema } from './trace.js';

/** The shape half of an RPC method (kept in `methodSpec.ts` so the domain files need not import this table). */
export type { MethodSpec } from './methodSpec.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;
const TaskRef = z.object({ taskId: z.string().min(1).max(100) }).strict();

/** `system.info` result. */
export const SystemInfoSchema = z.object({
  name: z.literal('agent-desk'),
  version: z.string(),
  node: z.string(),
  home: z.string(),
  pid: z.number().int(),
  startedAt: z.string(),
  methods: z.array(z.string()),
});

/** The runtime core's methods (tasks, approvals, traces, tools, events). */
export const CoreMethods = {
  'system.info': spec({
    params: z.object({}).strict().default({}),
    result: SystemInfoSchema,
    scope: 'operator.read',
    sideEffect: false,
    description: 'Runtime version, data folder and method list.',
  }),
  'tasks.create': spec({
    params: z
      .object({
        title: z.string().max(200).optional(),
        playbook: z
          .object({ source: z.string().min(1).max(1_000_000), baseDir: z.string().optional() })
          .strict()
          .optional(),
        /** A goal for a model planner (exactly one of `playbook` and `goal`). */
        goal: z.string().min(1).max(20_000).optional(),
        /** Goal tasks: provider model, e.g. `openai:gpt-4.1-mini`. */
        model: z.string().min(1).max(200).optional(),
        /** Goal tasks: the acceptance checks that decide success, as reviewed by the user. */
        checks: z.array(AcceptanceCheckSchema).max(50).optional(),
        agent: AgentNameSchema.optional(),
        policyProfile: z.string().min(1).max(100).optional(),
        sandbox: SandboxModeSchema.optional(),
        inputs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
        workspace: z.string().optional(),
        budget: BudgetLimitsSchema.optional(),
        start: z.boolean().default(true),
      })
      .strict()
      .refine((p) => (p.playbook === undefined) !== (p.goal === undefined), {
        message: 'give exactly one of playbook and goal',
      }),
    result: TaskSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Create a task from a playbook or a goal and (by default) start it.',
  }),
  'tasks.list': spec({
    params: z
      .object({
        state: TaskStateSchema.optional(),
        limit: z.number().int().min(1).max(500).default(50),
        before: z.string().optional(),
      })
      .strict()
      .default({ limit: 50 }),
    result: z.object({ tasks: z.array(TaskSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Tasks, newest first.',
  }),
  'tasks.get': spec({
    params: TaskRef,
    result: z.object({ task: TaskSchema, steps: z.array(StepSchema), events: z.array(TaskEventSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'One task with its steps and its conversation events (messages, model text, the answer).',
  }),
  'tasks.pause': spec({
    params: TaskRef,
    result: TaskSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Pause after the current step.',
  }),
  'tasks.resume': spec({
    params: TaskRef.extend({ resolution: UncertainResolutionSchema.optional() }).strict(),
    result: TaskSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Resume a paused or interrupted task; `resolution` settles an uncertain step.',
  }),
  'tasks.cancel': spec({
    params: TaskRef.extend({ reason: z.string().max(2000).optional() }).strict(),
    result: TaskSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Cancel a task; an in-flight tool call is aborted.',
  }),
  'tasks.message': spec({
    params: TaskRef.extend({ text: z.string().min(1).max(20_000) }).strict(),
    result: z.object({ seq: z.number().int() }),
    scope: 'operator.write',
    sideEffect: true,
    description: 'Send the task a message: a model planner reads it as a user turn in its next model request.',
  }),
  'approvals.list': spec({
    params: z.object({ status: ApprovalStatusSchema.optional(), taskId: z.string().optional() }).strict().default({}),
    result: z.object({ approvals: z.array(ApprovalSchema) }),
    scope: 'operator.read',
    orScope: 'operator.approvals',
    sideEffect: false,
    description: 'Approvals, pending first.',
  }),
  'approvals.decide': spec({
    params: ApprovalDecisionSchema.extend({ approvalId: z.string().min(1).max(100) }).strict(),
    result: ApprovalSchema,
    scope: 'operator.approvals',
    sideEffect: true,
    description: 'Approve or deny a pending approval.',
  }),
  'traces.get': spec({
    params: TaskRef.extend({
      afterSeq: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
    }).strict(),
    result: z.object({ events: z.array(TraceEventSchema), nextSeq: z.number().int().optional() }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'A page of a task trace after `afterSeq`.',
  }),
  'tools.catalog': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ tools: z.array(ToolDescriptorSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Every registered tool with its tier, risk and availability.',
  }),
  'events.subscribe': spec({
    params: z
      .object({
        events: z.array(z.enum(EVENT_NAMES as [EventName, ...EventName[]])).optional(),
        taskId: z.string().optional(),
      })
      .strict()
      .default({}),
    result: z.object({ subscribed: z.array(z.string()) }),
    scope: 'operator.read',
    /** Approvals-only clients may subscribe to approval events (and only those). */
    orScope: 'operator.approvals',
    sideEffect: false,
    description: 'Receive pushed events on this connection.',
  }),
} as const;

/**
 * Every RPC method: name → params, result, scope. Transports and clients read this one table.
 * Each domain keeps its specs in its own file (e.g. `mcpMethods.ts`) and is spread in here.
 */
export const Methods = {
  ...CoreMethods,
  ...SchedulerMethods,
  ...MemoryMethods,
  ...AgentMethods,
  ...McpMethods,
  ...SandboxMethods,
  ...SettingsMethods,
  ...IntentMethods,
  ...RecordMethods,
  ...QuestionMethods,
  ...TokenMethods,
  ...PeopleMethods,
  ...GrantMethods,
  ...SkillMethods,
  ...SpendMethods,
} as const;

/** An RPC method name. */
export type MethodName = keyof typeof Methods;
/** Params accepted by a method (before defaults are applied). */
export type MethodParams<M extends MethodName> = z.input<(typeof Methods)[M]['params']>;
/** Params after validation. */
export type ParsedParams<M extends MethodName> = z.output<(typeof Methods)[M]['params']>;
/** A method's result. */
export type MethodResult<M extends MethodName> = z.infer<(typeof Methods)[M]['result']>;
