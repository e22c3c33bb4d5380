import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';
import { PlaybookSchema } from './playbook.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** Record → replay: a succeeded model-planned task saved as a playbook; a healed replay saved with its healed steps. */
export const RecordMethods = {
  'tasks.record': spec({
    params: z
      .object({
        taskId: z.string().min(1).max(100),
        /** The model that heals a failing step on replay; default: the model the task ran with. */
        model: z.string().min(1).max(200).optional(),
      })
      .strict(),
    result: z.object({
      playbook: PlaybookSchema,
      yaml: z.string(),
      /** A replay of a recorded playbook: the 0-based positions of the steps the model healed, written in. */
      healed: z.array(z.number().int().nonnegative()).optional(),
    }),
    scope: 'operator.read',
    sideEffect: false,
    description:
      'Save a succeeded goal task as a playbook (steps, expectations from their results, acceptance checks), or a succeeded replay of one with the steps the model healed written in.',
  }),
} as const;
