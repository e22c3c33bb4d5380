import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';
import { schedulerHandlers } from '../gateway/schedulerHandlers.js';
import { Scheduler } from './scheduler.js';

/**
 * Cron jobs and the background queue (`cron.*` over RPC). The loop runs only where an entry
 * point starts it (`serve`, the desktop app, `queue run`); whoever starts it stops it.
 */
export function schedulerModule(core: RuntimeCore, overrides: { concurrency?: number } = {}): RuntimeModule & { service: Scheduler } {
  const service = new Scheduler(core, overrides);
  return { name: 'scheduler', service, handlers: schedulerHandlers(core, service) };
}
