import { z } from 'zod';
import { MEMORY_TEXT_MAX, MemoryNoteSchema, MemoryScopeSchema } from './memory.js';
import type { MethodSpec } from './methodSpec.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** Cross-session memory methods; every call names its scope. */
export const MemoryMethods = {
  'memory.search': spec({
    params: z
      .object({
        scope: MemoryScopeSchema,
        query: z.string().max(1000).default(''),
        limit: z.number().int().min(1).max(200).default(20),
      })
      .strict(),
    result: z.object({ notes: z.array(MemoryNoteSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Full-text search of one scope’s notes (empty query: newest first).',
  }),
  'memory.add': spec({
    params: z
      .object({
        scope: MemoryScopeSchema,
        text: z.string().min(1).max(MEMORY_TEXT_MAX),
        tags: z.array(z.string().min(1).max(50)).max(20).default([]),
      })
      .strict(),
    result: MemoryNoteSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Remember a note in a scope.',
  }),
  'memory.forget': spec({
    params: z.object({ scope: MemoryScopeSchema, noteId: z.string().min(1).max(100) }).strict(),
    result: z.object({ forgotten: z.boolean() }),
    scope: 'operator.write',
    sideEffect: true,
    description: 'Forget a note (gone from search and from later snapshots).',
  }),
} as const;
