import { z } from 'zod';

/** One live-view frame of a task's desktop sandbox (`screen.frame` event). */
export const ScreenFrameSchema = z.object({
  taskId: z.string(),
  seq: z.number().int(),
  format: z.enum(['jpeg', 'png']),
  width: z.number().int(),
  height: z.number().int(),
  /** Base64 image bytes. */
  data: z.string(),
  at: z.string(),
});
/** A live-view frame. */
export type ScreenFrame = z.infer<typeof ScreenFrameSchema>;
