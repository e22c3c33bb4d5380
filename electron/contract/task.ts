import { z } from 'zod';
import { ActorSchema } from './people.js';
import { AcceptanceCheckSchema, CheckResultSchema } from './check.js';
import { ServerTextSchema } from './serverText.js';

/** Task states. Terminal: succeeded, failed, cancelled. */
export const TaskStateSchema = z.enum([
  'queued',
  'planning',
  'running',
  'waiting_approval',
  'waiting_user',
  'paused',
  'retrying',
  'succeeded',
  'failed',
  'cancelled',
]);
/** A task state. */
export type TaskState = z.infer<typeof TaskStateSchema>;

/** States a task never leaves. */
export const TERMINAL_STATES: readonly TaskState[] = ['succeeded', 'failed', 'cancelled'];

/** Limits that stop a runaway task with a clear reason. */
export const BudgetSchema = z.object({
  maxSteps: z.number().int().positive().default(500),
  maxTokens: z.number().int().positive().default(2_000_000),
  maxCostUsd: z.number().positive().default(5),
  maxWallMs: z.number().int().positive().default(3_600_000),
});

/**
 * Some budget limits (config, agent, playbook, job, request): only the fields given, no
 * defaults — zod's `.partial()` would keep them and so override every weaker layer — and an
 * unknown field is an error, not silently dropped.
 */
export const BudgetLimitsSchema = z
  .object({
    maxSteps: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
    maxCostUsd: z.number().positive().optional(),
    maxWallMs: z.number().int().positive().optional(),
  })
  .strict();
/** A task budget. */
export type Budget = z.infer<typeof BudgetSchema>;

/** What a task has consumed so far. */
export const UsageSchema = z.object({
  steps: z.number().int(),
  modelCalls: z.number().int(),
  tokensIn: z.number().int(),
  tokensOut: z.number().int(),
  costUsd: z.number(),
  wallMs: z.number(),
});
/** Task usage. */
export type Usage = z.infer<typeof UsageSchema>;

/** Where a task's plan comes from. */
export const PlanSourceSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('playbook'),
    /** The playbook YAML text, as given. */
    source: z.string(),
    /** The folder relative paths in the playbook resolve against. */
    baseDir: z.string(),
  }),
  z.object({
    kind: z.literal('goal'),
    goal: z.string(),
    /** Provider model, e.g. `openai:gpt-4.1-mini`; absent: the agent's model, then the config default. */
    model: z.string().optional(),
    /** The reviewed acceptance checks that decide success (none: the planner proposes them for review). */
    acceptance: z.array(AcceptanceCheckSchema).optional(),
  }),
]);

/** Where a task's GUI actions run: `auto` starts a desktop sandbox only when a GUI tool is called. */
export const SandboxModeSchema = z.enum(['auto', 'none', 'desktop']);
/** A task's sandbox mode. */
export type SandboxMode = z.infer<typeof SandboxModeSchema>;
/** A plan source. */
export type PlanSource = z.infer<typeof PlanSourceSchema>;

/** How the user resolved a step whose side effect may or may not have happened. */
export const UncertainResolutionSchema = z.enum(['rerun', 'skip', 'fail']);
/** An uncertain-step resolution. */
export type UncertainResolution = z.infer<typeof UncertainResolutionSchema>;

/** A task: one goal or playbook run, durable across restarts. */
export const TaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  state: TaskStateSchema,
  /** Why the task is in its state: the failed check, the exhausted budget, the pending approval. */
  stateReason: z.string().optional(),
  /** `stateReason` as a catalog code (absent on rows written before codes, and for reasons with none). */
  stateReasonText: ServerTextSchema.optional(),
  plan: PlanSourceSchema,
  /** Inputs with secret values replaced by `[secret:name]`. */
  inputs: z.record(z.string(), z.unknown()),
  workspace: z.string(),
  budget: BudgetSchema,
  usage: UsageSchema,
  checks: z.array(CheckResultSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().optional(),
  /** The task that delegated this one (sub-agent child). */
  parentId: z.string().optional(),
  /** The agent this task runs as (its tool allowlist, policy profile and model apply). */
  agent: z.string().optional(),
  /** Named policy profile from the config (absent: the agent's, then the default rules). */
  policyProfile: z.string().optional(),
  sandbox: SandboxModeSchema.optional(),
  /** A goal task's final answer: the model's text when it finished without a tool call. */
  answer: z.string().optional(),
  /** Who started it (absent on tasks from before people): an operator controls their own tasks, an admin any. */
  owner: ActorSchema.optional(),
});
/** A task. */
export type Task = z.infer<typeof TaskSchema>;
