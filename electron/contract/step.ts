import { z } from 'zod';
import { PolicyDecisionSchema } from './policy.js';
import { RouteSchema } from './tool.js';
import { ServerTextSchema } from './serverText.js';

/**
 * Step lifecycle. `started` is written before the tool runs; a `started` step found at
 * start-up is re-run (read-only/idempotent tools) or becomes `uncertain`.
 */
export const StepStatusSchema = z.enum(['waiting_approval', 'started', 'completed', 'failed', 'denied', 'uncertain', 'skipped']);
/** A step status. */
export type StepStatus = z.infer<typeof StepStatusSchema>;

/** Progress a running tool reported (e.g. an MCP server's progress notifications). */
export const ToolProgressSchema = z.object({
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});
/** A progress report. */
export type ToolProgress = z.infer<typeof ToolProgressSchema>;

/** One executed (or gated) tool call of a task. */
export const StepSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  /** Position in the plan (playbook step index), stable across retries. */
  index: z.number().int().nonnegative(),
  /** Attempt number for this index, from 1. */
  attempt: z.number().int().positive(),
  planStepId: z.string().optional(),
  tool: z.string(),
  args: z.unknown(),
  status: StepStatusSchema,
  idempotencyKey: z.string(),
  readOnly: z.boolean(),
  idempotent: z.boolean(),
  route: RouteSchema.optional(),
  policy: PolicyDecisionSchema.optional(),
  approvalId: z.string().optional(),
  output: z.unknown().optional(),
  outputDigest: z.string().optional(),
  error: z.string().optional(),
  /** `error` as a catalog code, for the runtime's own words (a denial, an interruption); a tool's error has none. */
  errorText: ServerTextSchema.optional(),
  tokens: z.number().int(),
  costUsd: z.number(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  durationMs: z.number().optional(),
  /** The latest progress of a running call (live in `task.step` events; not kept after it ends). */
  progress: ToolProgressSchema.optional(),
});
/** A step. */
export type Step = z.infer<typeof StepSchema>;
