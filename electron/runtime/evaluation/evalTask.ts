import { z } from 'zod';
import { AcceptanceCheckSchema, BudgetLimitsSchema } from '../../contract/index.js';

/** A scripted tool call in an eval file: a runtime tool name and arguments, or raw wire text to test malformed calls. */
export const EvalScriptCallSchema = z
  .object({
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()).optional(),
    /** Raw argument text sent as-is (e.g. broken JSON). */
    rawArgs: z.string().optional(),
  })
  .strict();

/** One scripted model turn. */
export const EvalScriptTurnSchema = z.object({ text: z.string().optional(), calls: z.array(EvalScriptCallSchema).optional() }).strict();

/** A real model for an eval run (the key comes from an environment variable, never from the file). */
export const EvalModelSchema = z
  .object({
    provider: z.enum(['openai-chat', 'openai-responses', 'anthropic']),
    model: z.string().min(1),
    baseURL: z.string().optional(),
    apiKeyEnv: z.string().optional(),
  })
  .strict();

/** One evaluation task: a goal, how the model is played, the checks that decide success. */
export const EvalTaskSchema = z
  .object({
    name: z.string().min(1),
    goal: z.string().min(1),
    /** Files written into the workspace before the run (path → text). */
    files: z.record(z.string(), z.string()).default({}),
    script: z.array(EvalScriptTurnSchema).optional(),
    model: EvalModelSchema.optional(),
    acceptance: z.array(AcceptanceCheckSchema).default([]),
    /** How approval requests are answered during the eval. */
    approvals: z.enum(['approve', 'deny']).default('approve'),
    /** The state the task should end in; a task meant to fail (e.g. a denied delete) says `failed`. */
    expect: z.enum(['succeeded', 'failed']).default('succeeded'),
    budget: BudgetLimitsSchema.optional(),
  })
  .strict()
  .refine((t) => (t.script === undefined) !== (t.model === undefined), {
    message: 'give exactly one of script or model',
    path: ['script'],
  });
/** An evaluation task. */
export type EvalTask = z.infer<typeof EvalTaskSchema>;

/** `suite.yaml` beside the tasks: prices for cost figures. */
export const EvalSuiteSchema = z
  .object({
    name: z.string().default('evals'),
    prices: z
      .record(
        z.string(),
        z.object({ inputPerMTok: z.number(), outputPerMTok: z.number(), cachedInputPerMTok: z.number().optional() }).strict(),
      )
      .default({}),
  })
  .strict();
/** Suite settings. */
export type EvalSuite = z.infer<typeof EvalSuiteSchema>;
