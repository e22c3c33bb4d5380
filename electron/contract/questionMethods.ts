import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** A value a user may give for one field of a question (MCP elicitation's primitive types). */
export const AnswerValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/**
 * A question a running tool asks the user (e.g. an MCP server's `elicitation/create`): the task
 * waits in `waiting_user` until `tasks.respond` answers it.
 */
export const UserQuestionSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  stepId: z.string().optional(),
  /** Who asks, e.g. `MCP server "everything"`. */
  source: z.string(),
  message: z.string(),
  /** A flat JSON Schema object (type object, primitive properties) the answer's content must match. */
  requestedSchema: z.record(z.string(), z.unknown()),
  askedAt: z.string(),
});
/** A pending question. */
export type UserQuestion = z.infer<typeof UserQuestionSchema>;

/** How the user answered: accept with content, decline, or cancel (dismiss without choosing). */
export const UserAnswerSchema = z
  .object({
    action: z.enum(['accept', 'decline', 'cancel']),
    /** The answer's fields (only with accept), checked against the question's requestedSchema. */
    content: z.record(z.string(), AnswerValueSchema).optional(),
  })
  .strict();
/** An answer. */
export type UserAnswer = z.infer<typeof UserAnswerSchema>;

const TaskRef = z.object({ taskId: z.string().min(1).max(100) }).strict();

/** Questions tools ask the user while a task runs. */
export const QuestionMethods = {
  'tasks.question': spec({
    params: TaskRef,
    result: z.object({ question: UserQuestionSchema.optional() }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'The question a task in waiting_user is waiting on (message and requested schema), if any.',
  }),
  'tasks.respond': spec({
    params: TaskRef.extend(UserAnswerSchema.shape).strict(),
    result: z.object({ question: UserQuestionSchema, action: UserAnswerSchema.shape.action }),
    scope: 'operator.write',
    sideEffect: true,
    description:
      'Answer the question a task waits on: accept (with content matching the requested schema), decline or cancel. The answer goes back to the tool and the task continues.',
  }),
} as const;
