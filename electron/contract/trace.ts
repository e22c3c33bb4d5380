import { z } from 'zod';

/** Kinds of trace events, appended in order per task. */
export const TraceEventTypeSchema = z.enum([
  'task.created',
  'task.transition',
  'step.planned',
  'step.policy',
  'step.started',
  'step.completed',
  'step.failed',
  'step.uncertain',
  'step.skipped',
  'approval.requested',
  'approval.resolved',
  'approval.voted',
  'approval.refused',
  'check.result',
  'budget.exceeded',
  'loop.detected',
  'service.started',
  'user.message',
  'delegation.started',
  'delegation.finished',
  'model.call',
  'intent.proposed',
  'intent.reviewed',
  'tool.progress',
  'user.asked',
  'user.answered',
  'skills.loaded',
  'hook.run',
  'hook.timeout',
  'hook.error',
]);
/** A trace event type. */
export type TraceEventType = z.infer<typeof TraceEventTypeSchema>;

/** One trace event. `data` is already redacted when it is written. */
export const TraceEventSchema = z.object({
  taskId: z.string(),
  seq: z.number().int().positive(),
  ts: z.string(),
  type: TraceEventTypeSchema,
  stepId: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});
/** A trace event. */
export type TraceEvent = z.infer<typeof TraceEventSchema>;
