import { z } from 'zod';
import { AcceptanceCheckSchema } from './check.js';
import { BudgetLimitsSchema } from './task.js';

/** A declared playbook input. Secret inputs are never persisted and are redacted everywhere. */
export const PlaybookInputSchema = z.object({
  type: z.enum(['string', 'number', 'boolean']).default('string'),
  description: z.string().optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  required: z.boolean().default(false),
  secret: z.boolean().default(false),
});
/** A playbook input declaration. */
export type PlaybookInput = z.infer<typeof PlaybookInputSchema>;

/** A condition on a step's output (a JSONPath into it); a failed expectation fails the step. */
export const StepExpectationSchema = z
  .object({
    path: z.string().min(1),
    equals: z.unknown().optional(),
    contains: z.string().optional(),
    exists: z.boolean().optional(),
  })
  .strict();
/** A step expectation. */
export type StepExpectation = z.infer<typeof StepExpectationSchema>;

/** One playbook step: a tool (or a capability the router resolves) with templated arguments. */
export const PlaybookStepSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z_][\w-]*$/, 'letters, digits, _ and - only')
      .optional(),
    title: z.string().optional(),
    tool: z.string().min(1).optional(),
    capability: z.string().min(1).optional(),
    args: z.record(z.string(), z.unknown()).default({}),
    expect: z.array(StepExpectationSchema).default([]),
    retries: z.number().int().min(0).max(10).default(0),
    /** When a person denies this step's approval: `fail` the task (absent: fail) or `continue` with the next step. */
    onDeny: z.enum(['fail', 'continue']).optional(),
  })
  .strict()
  .refine((s) => s.tool !== undefined || s.capability !== undefined, {
    message: 'required (or give capability)',
    path: ['tool'],
  });
/** A playbook step. */
export type PlaybookStep = z.infer<typeof PlaybookStepSchema>;

/** A local service the playbook needs (e.g. a dev API), started before the steps and stopped after. */
export const PlaybookServiceSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z_][\w-]*$/, 'letters, digits, _ and - only'),
    /** argv, resolved relative to the playbook's folder; `PORT` is set to a free loopback port. */
    command: z.array(z.string()).min(1),
    /** Path polled until it answers 2xx, e.g. `/health`. */
    readyPath: z.string().default('/'),
    env: z.record(z.string(), z.string()).default({}),
    readyTimeoutMs: z.number().int().positive().default(15_000),
  })
  .strict();
/** A playbook service. */
export type PlaybookService = z.infer<typeof PlaybookServiceSchema>;

/** Self-healing of a replayed (recorded) playbook: the model called for a step whose expectation fails. */
export const PlaybookHealSchema = z
  .object({
    /** The model, as a task names it (e.g. `openai:gpt-4.1-mini`). */
    model: z.string().min(1),
    /** Model calls per failing step before the task fails. */
    maxRounds: z.number().int().min(1).max(5).default(2),
  })
  .strict();
/** A playbook's healing settings. */
export type PlaybookHeal = z.infer<typeof PlaybookHealSchema>;

/** A YAML playbook: runs with no model at all. */
export const PlaybookSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** The goal the playbook was recorded from (given to the model when a step heals). */
    goal: z.string().optional(),
    /** Absent: a failed expectation fails the task, as in any playbook. */
    heal: PlaybookHealSchema.optional(),
    inputs: z.record(z.string(), PlaybookInputSchema).default({}),
    services: z.array(PlaybookServiceSchema).default([]),
    budget: BudgetLimitsSchema.optional(),
    steps: z.array(PlaybookStepSchema).min(1),
    acceptance: z.array(AcceptanceCheckSchema).default([]),
  })
  .strict();
/** A parsed playbook. */
export type Playbook = z.infer<typeof PlaybookSchema>;
