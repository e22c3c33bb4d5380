import { z } from 'zod';

/**
 * What a person reads of a task's conversation: their own messages, the model's text between
 * tool calls, reasoning summaries (where the provider gives them), the final answer, and context
 * a hook added for the model (`hook.context`, read by the model like a message).
 */
export const TaskEventKindSchema = z.enum(['user.message', 'model.text', 'model.reasoning', 'answer', 'hook.context']);
/** A task event kind. */
export type TaskEventKind = z.infer<typeof TaskEventKindSchema>;

/** One task event, numbered 1, 2, 3… per task in the order it happened. */
export const TaskEventSchema = z.object({
  taskId: z.string(),
  seq: z.number().int().positive(),
  kind: TaskEventKindSchema,
  text: z.string(),
  at: z.string(),
});
/** A task event. */
export type TaskEvent = z.infer<typeof TaskEventSchema>;
