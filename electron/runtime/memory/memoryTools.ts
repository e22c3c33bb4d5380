import { z } from 'zod';
import { MEMORY_TEXT_MAX, type MemoryScope } from '../../contract/index.js';
import { ToolError, type Tool, type ToolContext } from '../tools/types.js';
import type { MemoryService } from './memoryService.js';

const ScopeArg = z.enum(['workspace', 'agent']).default('workspace').describe('Whose memory: this workspace’s, or this agent’s.');

/** Arguments of `memory.save`. */
export const MemorySaveInputSchema = z
  .object({
    text: z.string().min(1).max(MEMORY_TEXT_MAX).describe('A short fact worth knowing in later tasks.'),
    tags: z.array(z.string().min(1).max(50)).max(10).default([]),
    scope: ScopeArg,
  })
  .strict();
/** Arguments of `memory.search`. */
export const MemorySearchInputSchema = z
  .object({
    query: z.string().max(500).describe('Words to look for.'),
    limit: z.number().int().min(1).max(50).default(10),
    scope: ScopeArg,
  })
  .strict();

/** The concrete scope a task's call names; a task only ever reaches its own workspace and agent. */
async function resolveScope(
  memory: MemoryService,
  which: 'workspace' | 'agent',
  ctx: Pick<ToolContext, 'taskId' | 'workspace'>,
): Promise<MemoryScope> {
  const scopes = await memory.scopesOf({ id: ctx.taskId, workspace: ctx.workspace });
  const scope = scopes.find((s) => s.kind === which);
  if (!scope) throw new ToolError(`this task runs as no agent, so it has no agent memory; use scope "workspace"`);
  return scope;
}

/**
 * The memory tools offered to planners. Saving is a write outside the workspace, so the default
 * policy asks before anything is remembered; searching is a read.
 */
export function memoryTools(memory: MemoryService): Tool[] {
  const save: Tool<z.output<typeof MemorySaveInputSchema>> = {
    name: 'memory.save',
    title: 'Remember a note',
    description: 'Saves a short note to cross-session memory (this workspace or this agent). Later tasks see it.',
    tier: 'api',
    capabilities: ['memory.write'],
    risk: 'write',
    readOnly: false,
    // The note id derives from the call's idempotency key: a re-run saves nothing new.
    idempotent: true,
    input: MemorySaveInputSchema as z.ZodType<z.output<typeof MemorySaveInputSchema>>,
    classify: (args) => ({
      risks: ['write'],
      subject: `memory:${args.scope}`,
      readOnly: false,
      idempotent: true,
      insideWorkspace: false,
      preview: { summary: `Remember in ${args.scope} memory: ${args.text.slice(0, 200)}` },
    }),
    availability: () => ({ available: true }),
    execute: async (args, ctx) => {
      const scope = await resolveScope(memory, args.scope, ctx);
      const note = await memory.add(scope, args.text, args.tags, { taskId: ctx.taskId, key: ctx.idempotencyKey });
      return { id: note.id, scope: note.scope };
    },
  };
  const search: Tool<z.output<typeof MemorySearchInputSchema>> = {
    name: 'memory.search',
    title: 'Search memory',
    description: 'Full-text search of notes remembered by earlier tasks (this workspace or this agent).',
    tier: 'api',
    capabilities: ['memory.read'],
    risk: 'read',
    readOnly: true,
    idempotent: true,
    input: MemorySearchInputSchema as z.ZodType<z.output<typeof MemorySearchInputSchema>>,
    classify: (args) => ({
      risks: ['read'],
      subject: `memory:${args.scope}`,
      readOnly: true,
      idempotent: true,
      insideWorkspace: true,
      preview: { summary: `Search ${args.scope} memory for "${args.query}"` },
    }),
    availability: () => ({ available: true }),
    execute: async (args, ctx) => {
      const notes = await memory.search(await resolveScope(memory, args.scope, ctx), args.query, args.limit);
      return { notes: notes.map((n) => ({ id: n.id, text: n.text, tags: n.tags })) };
    },
  };
  return [save, search] as Tool[];
}
