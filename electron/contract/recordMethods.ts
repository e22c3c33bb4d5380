import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';
import { PlaybookSchema } from './playbook.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** Record → replay: a succeeded model-planned task saved as a playbook. */
export const RecordMethods = {
  'tasks.record': spec({
    params: z
      .object({
        taskId: z.string().min(1).max(100),
        /** The model that heals a failing step on replay; default: the model the task ran with. */
        model: z.string().min(1).max(200).optional(),
      })
      .strict(),
    result: z.object({ playbook: PlaybookSchema, yaml: z.string() }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Save a succeeded goal task as a playbook (steps, expectations from their results, acceptance checks).',
  }),
} as const;
