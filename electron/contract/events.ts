import { z } from 'zod';
import { ApprovalSchema } from './approval.js';
import { CronRunSchema } from './schedule.js';
import { ScreenFrameSchema } from './screen.js';
import { StepSchema } from './step.js';
import { TaskSchema } from './task.js';

/** Events pushed to subscribers, keyed by wire name. */
export const EventSchemas = {
  'task.updated': TaskSchema,
  'task.step': StepSchema,
  'approval.requested': ApprovalSchema,
  'approval.resolved': ApprovalSchema,
  /** A vote landed and more are needed (four eyes): the approval with its votes so far. */
  'approval.updated': ApprovalSchema,
  'cron.fired': CronRunSchema,
  'screen.frame': ScreenFrameSchema,
} as const;

/** An event's wire name. */
export type EventName = keyof typeof EventSchemas;
/** An event name → payload map. */
export type EventPayloads = { [K in EventName]: z.infer<(typeof EventSchemas)[K]> };
/** Every event name. */
export const EVENT_NAMES = Object.keys(EventSchemas) as EventName[];

/** The frame a transport pushes for one event. */
export const EventFrameSchema = z.object({
  event: z.enum(EVENT_NAMES as [EventName, ...EventName[]]),
  data: z.unknown(),
});
/** An event frame. */
export type EventFrame = z.infer<typeof EventFrameSchema>;
