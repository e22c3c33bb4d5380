import { z } from 'zod';
import { BudgetLimitsSchema } from './task.js';

/** An agent's name: also its id, so it reads well in delegations and traces. */
export const AgentNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" and "-", starting with a letter or digit');

/** The editable part of an agent definition. */
export const AgentSpecSchema = z
  .object({
    name: AgentNameSchema,
    description: z.string().max(2000).default(''),
    /** Model for goal tasks, e.g. `openai:gpt-4.1-mini` (the LLM planner reads it). */
    model: z.string().max(200).optional(),
    /** Tool-name wildcards this agent may call (`*` = every tool). */
    tools: z.array(z.string().min(1).max(200)).max(200).default(['*']),
    /** Named policy profile from the config (absent: the default rules). */
    policyProfile: z.string().max(100).optional(),
    /** Fixed workspace for its tasks (absent: a fresh folder per task). */
    workspace: z.string().max(4096).optional(),
    budget: BudgetLimitsSchema.default({}),
    /** How many of its background tasks may run at once. */
    maxConcurrent: z.number().int().min(1).max(64).default(2),
  })
  .strict();
/** An agent's editable fields. */
export type AgentSpec = z.infer<typeof AgentSpecSchema>;

/** A persisted agent definition. */
export const AgentSchema = AgentSpecSchema.extend({ createdAt: z.string(), updatedAt: z.string() });
/** An agent. */
export type Agent = z.infer<typeof AgentSchema>;
