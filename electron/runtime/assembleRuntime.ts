import { agentsModule } from './agents/agentsModule.js';
import { budgetsModule } from './budgets/budgetsModule.js';
import type { AgentService } from './agents/agentService.js';
import { openRuntimeCore } from './core/openCore.js';
import type { CoreOptions, RuntimeCore } from './core/runtimeCore.js';
import type { RuntimeModule } from './core/runtimeModule.js';
import { createDispatcher, type Dispatcher } from './gateway/dispatcher.js';
import { gatewayModule } from './gateway/gatewayModule.js';
import type { Handlers } from './gateway/handlers.js';
import { systemHandlers } from './gateway/systemHandlers.js';
import { memoryModule } from './memory/memoryModule.js';
import type { MemoryService } from './memory/memoryService.js';
import { goalsModule, type InProcessModel } from './planning/llm/goalsModule.js';
import { replayModule } from './planning/record/replayModule.js';
import { schedulerModule } from './scheduler/schedulerModule.js';
import type { Scheduler } from './scheduler/scheduler.js';
import { redactedLog } from './secrets/redactedLog.js';

/** The runtime's own features, which every assembly has; modules after them may use them. */
export interface RuntimeFeatures {
  memory: MemoryService;
  agents: AgentService;
  scheduler: Scheduler;
}

/** What an entry point asks of the assembly beyond the core's options. */
export interface AssemblyOptions extends CoreOptions {
  /** Goal tasks plan with this in-process model instead of the configured ones (bench, eval). */
  model?: InProcessModel;
  /** The background queue's concurrency, over `scheduler.concurrency` in the config (`queue run --concurrency`). */
  scheduler?: { concurrency?: number };
}

/** More modules, built on the core and the runtime's features (capabilities, a test's tools). */
export type ModuleList = (core: RuntimeCore, features: RuntimeFeatures) => readonly RuntimeModule[];

/** The assembled runtime: the core, its features, the method table, and how it ends. */
export interface Runtime extends RuntimeCore, RuntimeFeatures {
  readonly dispatcher: Dispatcher;
  /** The modules in the order they were applied. */
  readonly modules: readonly RuntimeModule[];
  /** A server leaves without waiting for its runs (they stay resumable): modules finish what the next process needs, then the store closes. */
  stop(): Promise<void>;
  /** Waits for in-process runs (and hooks still running), closes modules in reverse, then the store. */
  close(): Promise<void>;
  /** Ends the spans of tasks still running or waiting here and sends them. */
  flushTelemetry(): Promise<void>;
}

/**
 * The one place the runtime is put together: the core, then the runtime's feature modules
 * (gateway methods, memory, agents, scheduler, replay, goals), then the caller's modules
 * (MCP, browser, desktop — see capabilities/composition), each applied in order — tools
 * registered, plan and check layers wrapped, handlers merged — and stopped in reverse.
 * See docs/architecture.md.
 */
export function assembleRuntime(options: AssemblyOptions, more: ModuleList = () => []): Runtime {
  const core = openRuntimeCore(options);
  const memory = memoryModule(core);
  const agents = agentsModule(core);
  const scheduler = schedulerModule(core, options.scheduler);
  const features: RuntimeFeatures = { memory: memory.service, agents: agents.service, scheduler: scheduler.service };
  const modules: RuntimeModule[] = [
    gatewayModule(core),
    budgetsModule(core),
    memory,
    agents,
    scheduler,
    // Layers wrap outward: a goal task is planned by the goals layer, a recorded playbook heals through replay.
    replayModule(core),
    goalsModule(core, { memory: memory.service, ...(options.model && { model: options.model }) }),
    ...more(core, features),
  ];
  const handlers: Handlers = {};
  for (const module of modules) apply(core, module, handlers);
  const dispatcher: Dispatcher = createDispatcher({
    handlers: Object.assign(
      handlers,
      systemHandlers(core, () => dispatcher.methods()),
    ),
    idempotency: core.store.idempotency,
    log: redactedLog(core.redactor),
    taskOwner: async (taskId) => {
      const task = await core.store.tasks.get(taskId);
      return task ? (task.owner ?? null) : undefined;
    },
  });
  for (const module of modules) module.start?.();
  const reversed = [...modules].reverse();
  const flushTelemetry = async () => {
    core.telemetry?.endAll();
    await options.telemetry?.flush?.();
  };
  return Object.assign(core, features, {
    dispatcher,
    modules,
    flushTelemetry,
    async stop() {
      for (const module of reversed) await module.stop?.();
      await flushTelemetry();
      await core.lease.close(); // what it still owns is free for the next worker at once
      await core.store.close();
    },
    async close() {
      await core.engine.idle();
      await core.hooks?.idle();
      // Tasks still waiting end their span here, before the exporter's last flush (a module's close).
      core.telemetry?.endAll();
      for (const module of reversed) await module.close?.();
      await core.lease.close();
      await core.store.close();
    },
  });
}

/** Registers a module's tools (two modules offering one name is a conflict), wraps its layers and merges its handlers. */
function apply(core: RuntimeCore, module: RuntimeModule, handlers: Handlers): void {
  for (const tool of module.tools ?? []) core.registry.register(tool);
  if (module.plans) core.plans.wrap(module.plans);
  if (module.checks) core.checks.wrap(module.checks);
  Object.assign(handlers, module.handlers);
}
