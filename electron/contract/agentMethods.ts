import { z } from 'zod';
import { AgentNameSchema, AgentSchema, AgentSpecSchema } from './agent.js';
import type { MethodSpec } from './methodSpec.js';
import { patchOf } from './patch.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** Agent definition methods. */
export const AgentMethods = {
  'agents.list': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ agents: z.array(AgentSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Every agent definition.',
  }),
  'agents.create': spec({
    params: AgentSpecSchema,
    result: AgentSchema,
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Define an agent: model, tool allowlist, policy profile, workspace, budgets.',
  }),
  'agents.update': spec({
    params: z.object({ name: AgentNameSchema, patch: patchOf(AgentSpecSchema.omit({ name: true })) }).strict(),
    result: AgentSchema,
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Change an agent definition.',
  }),
  'agents.delete': spec({
    params: z.object({ name: AgentNameSchema }).strict(),
    result: z.object({ deleted: z.boolean() }),
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Delete an agent definition (its past tasks stay).',
  }),
} as const;
