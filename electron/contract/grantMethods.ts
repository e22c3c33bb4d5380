import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** A remembered approval: the policy gate allows this tool on this subject without asking again. */
export const GrantSchema = z.object({
  id: z.string(),
  tool: z.string(),
  /** What the approval was for (a path, a host, a selector), as the gate matches it; secrets masked. */
  subject: z.string(),
  /** `task`: only inside `taskId`; `always`: every task. */
  scope: z.enum(['task', 'always']),
  taskId: z.string().optional(),
  /** The approval whose decision created it. */
  approvalId: z.string(),
  createdAt: z.string(),
});
/** A grant. */
export type Grant = z.infer<typeof GrantSchema>;

/** `grants.*`: list and revoke remembered approvals. */
export const GrantMethods = {
  'grants.list': spec({
    params: z
      .object({ scope: z.enum(['task', 'always']).optional(), taskId: z.string().max(100).optional() })
      .strict()
      .default({}),
    result: z.object({ grants: z.array(GrantSchema) }),
    scope: 'operator.read',
    orScope: 'operator.approvals',
    sideEffect: false,
    description: 'Remembered approvals (this task / always), newest first.',
  }),
  'grants.revoke': spec({
    params: z.object({ id: z.string().min(1).max(100) }).strict(),
    result: GrantSchema,
    scope: 'operator.approvals',
    sideEffect: true,
    description: 'Forget a remembered approval: the next matching call asks again.',
  }),
} as const;
