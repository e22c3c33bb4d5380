export { MemoryService, renderSnapshot } from './memoryService.js';
export { memoryTools } from './memoryTools.js';
export { memoryModule } from './memoryModule.js';
