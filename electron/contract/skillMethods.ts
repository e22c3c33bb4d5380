import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';
import { SkillListSchema } from './skill.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** A skill a task put in use with a `skills.read` step; it narrows the task's calls from then on. */
export const SkillInUseSchema = z.object({
  skill: z.string(),
  /** The `skills.read` step that read it. */
  stepId: z.string(),
  /** What the task may still call while it is in use; absent: the skill narrows nothing. */
  allowedTools: z.array(z.string()).optional(),
});
/** A skill in use by a task. */
export type SkillInUse = z.infer<typeof SkillInUseSchema>;

/** Agent Skills over RPC: what a goal task is offered, and what a task has in use. */
export const SkillMethods = {
  'skills.list': spec({
    params: z
      .object({ taskId: z.string().min(1).max(100).optional() })
      .strict()
      .default({}),
    result: SkillListSchema.extend({ inUse: z.array(SkillInUseSchema).optional() }),
    scope: 'operator.read',
    sideEffect: false,
    description:
      "The skills of $AGENT_DESK_HOME/skills and, with taskId, of that task's workspace (.agents/skills), the folders skipped with why, and the skills the task has in use.",
  }),
} as const;
