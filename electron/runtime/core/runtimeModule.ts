import type { CheckRunner, PlanFactory } from '../engine/ports.js';
import type { Handlers } from '../gateway/handlers.js';
import type { AnyTool } from '../tools/types.js';

/**
 * A feature of the runtime (memory, agents, the scheduler, goals, MCP, the browser, the
 * desktop, …): what it adds to the core. Built by a function that receives the core, or the
 * part of it the feature uses; `assembleRuntime` applies modules in order and stops them in
 * reverse. See docs/architecture.md, "Modules and the one assembly".
 */
export interface RuntimeModule {
  readonly name: string;
  /** Registered in the core's tool registry, in order. */
  readonly tools?: readonly AnyTool[];
  /** A layer over how plans are built (receives the layer below). */
  readonly plans?: (next: PlanFactory) => PlanFactory;
  /** A layer over how acceptance checks run (receives the runner below). */
  readonly checks?: (next: CheckRunner) => CheckRunner;
  /** RPC methods, merged over the modules before it. */
  readonly handlers?: Handlers;
  /** Called once every module is in place (start background work, follow the bus). */
  start?(): void;
  /** The server leaves with runs in flight: finish what the next process needs (a waiting task's saved page). */
  stop?(): Promise<void> | void;
  /** In-process runs are over: release connections, browsers, desktops. */
  close?(): Promise<void> | void;
}
