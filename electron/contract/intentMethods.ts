import { z } from 'zod';
import { AcceptanceCheckSchema } from './check.js';
import type { MethodSpec } from './methodSpec.js';
import { TaskSchema } from './task.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** Intent review: the acceptance checks that will decide a goal task. */
export const IntentMethods = {
  'tasks.reviewChecks': spec({
    params: z
      .object({
        taskId: z.string().min(1).max(100),
        /** The proposal as accepted, or edited; at least one check (no goal task succeeds on zero). */
        checks: z.array(AcceptanceCheckSchema).min(1).max(100),
        /** Continue the task at once (default). */
        start: z.boolean().default(true),
      })
      .strict(),
    result: TaskSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Stores the reviewed acceptance checks of a goal task and lets it continue.',
  }),
} as const;
