import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';
import { memoryHandlers } from '../gateway/memoryHandlers.js';
import { MemoryService } from './memoryService.js';
import { memoryTools } from './memoryTools.js';

/** Cross-session memory: the `memory.save` / `memory.search` tools and `memory.*` over RPC. */
export function memoryModule(core: Pick<RuntimeCore, 'store' | 'clock'>): RuntimeModule & { service: MemoryService } {
  const service = new MemoryService(core);
  return { name: 'memory', service, tools: memoryTools(service), handlers: memoryHandlers(service) };
}
