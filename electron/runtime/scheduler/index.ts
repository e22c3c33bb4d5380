import type { AgentRuntime } from '../agentRuntime.js';
import { Scheduler } from './scheduler.js';

const schedulers = new WeakMap<AgentRuntime, Scheduler>();

/** The one scheduler of a runtime (handlers, `serve` and the CLI share it); overrides apply when it is first made. */
export function schedulerFor(rt: AgentRuntime, overrides: { concurrency?: number } = {}): Scheduler {
  let scheduler = schedulers.get(rt);
  if (!scheduler) {
    scheduler = new Scheduler(rt, overrides);
    schedulers.set(rt, scheduler);
  }
  return scheduler;
}

export { Scheduler, type CronRunView } from './scheduler.js';
export { BackgroundQueue } from './backgroundQueue.js';
