import type { AgentRuntime } from '../agentRuntime.js';
import { MemoryService } from './memoryService.js';
import { memoryTools } from './memoryTools.js';

const services = new WeakMap<AgentRuntime, MemoryService>();

/** The runtime's memory; the first call also registers `memory.save` and `memory.search` in its tool registry. */
export function memoryFor(rt: AgentRuntime): MemoryService {
  let memory = services.get(rt);
  if (!memory) {
    memory = new MemoryService(rt);
    services.set(rt, memory);
    for (const tool of memoryTools(memory)) if (!rt.registry.get(tool.name)) rt.registry.register(tool);
  }
  return memory;
}

/**
 * The frozen memory block for a task's stable context prefix ('' when nothing is remembered).
 * For the context builder: call it when the task starts; later calls return the same text.
 */
export const memorySnapshot = (rt: AgentRuntime, task: { id: string; workspace: string }): string => memoryFor(rt).snapshotFor(task);

export { MemoryService, renderSnapshot } from './memoryService.js';
export { memoryTools } from './memoryTools.js';
