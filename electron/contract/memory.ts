import { z } from 'zod';

/** Whose memory a note belongs to: one agent's, or one workspace's (by absolute path). */
export const MemoryScopeSchema = z
  .object({
    kind: z.enum(['agent', 'workspace']),
    id: z.string().min(1).max(4096),
  })
  .strict();
/** A memory scope. */
export type MemoryScope = z.infer<typeof MemoryScopeSchema>;

/** One remembered note. */
export const MemoryNoteSchema = z.object({
  id: z.string(),
  scope: MemoryScopeSchema,
  text: z.string(),
  tags: z.array(z.string()),
  /** The task that saved it (absent when a person added it). */
  taskId: z.string().optional(),
  createdAt: z.string(),
});
/** A memory note. */
export type MemoryNote = z.infer<typeof MemoryNoteSchema>;

/** Limits a note must respect (kept short: notes enter every prompt's stable prefix). */
export const MEMORY_TEXT_MAX = 4000;
