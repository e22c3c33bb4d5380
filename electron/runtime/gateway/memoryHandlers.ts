import type { MemoryService } from '../memory/memoryService.js';
import type { Handlers } from './handlers.js';

/** `memory.*` over RPC. */
export function memoryHandlers(memory: MemoryService): Handlers {
  return {
    'memory.search': async (p) => ({ notes: await memory.search(p.scope, p.query, p.limit) }),
    'memory.add': (p) => memory.add(p.scope, p.text, p.tags),
    'memory.forget': async (p) => ({ forgotten: await memory.forget(p.scope, p.noteId) }),
  };
}
