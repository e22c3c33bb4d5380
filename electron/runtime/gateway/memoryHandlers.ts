import type { AgentRuntime } from '../agentRuntime.js';
import { memoryFor } from '../memory/index.js';
import type { Handlers } from './handlers.js';

/** `memory.*` over RPC (and registers the memory tools for planners). */
export function memoryHandlers(rt: AgentRuntime): Handlers {
  const memory = memoryFor(rt);
  return {
    'memory.search': (p) => ({ notes: memory.search(p.scope, p.query, p.limit) }),
    'memory.add': (p) => memory.add(p.scope, p.text, p.tags),
    'memory.forget': (p) => ({ forgotten: memory.forget(p.scope, p.noteId) }),
  };
}
