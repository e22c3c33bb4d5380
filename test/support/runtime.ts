import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigSchema, type Config, type Task, type TaskState } from '../../electron/contract/index.js';
import { assembleRuntime, type AssemblyOptions, type ModuleList, type Runtime } from '../../electron/runtime/assembleRuntime.js';
import type { Clock } from '../../electron/runtime/clock.js';
import type { RuntimeCore } from '../../electron/runtime/core/runtimeCore.js';
import type { RuntimeModule } from '../../electron/runtime/core/runtimeModule.js';
import type { PlanFactory } from '../../electron/runtime/engine/ports.js';
import type { AnyTool } from '../../electron/runtime/tools/types.js';

/** A fresh data folder under the OS temp dir. */
export const tempDir = (prefix = 'agent-desk-test-'): string => mkdtempSync(path.join(os.tmpdir(), prefix));

/** A runtime over a real SQLite file in a temp home; `reopen` simulates a process restart. */
export interface TestRuntime {
  rt: Runtime;
  home: string;
  reopen(): Promise<Runtime>;
  /** A second runtime over the same home and options (another process), left open: the test closes it. */
  another(): Runtime;
  cleanup(): Promise<void>;
}

/** What a test opens a runtime with: the assembly's options, plus a test module of its own. */
export type TestRuntimeOptions = Partial<Omit<AssemblyOptions, 'config'>> & {
  config?: Record<string, unknown>;
  /** Tools of the test (a module after the product's). */
  tools?: readonly AnyTool[];
  /** A plan layer of the test, outermost (scripted goal planners). */
  plans?: (playbooks: PlanFactory) => PlanFactory;
  /** Modules of the test, built on the core like the product's. */
  modules?: ModuleList;
};

/**
 * Opens a real runtime in a temp home (or the given one), through the product's one assembly
 * (`assembleRuntime`): the runtime's feature modules, then the test's own.
 */
export function openTestRuntime(options: TestRuntimeOptions = {}): TestRuntime {
  const { tools, plans, modules, config: given, ...core } = options;
  const home = options.home ?? tempDir();
  const config: Config = ConfigSchema.parse(given ?? {});
  const testModule: RuntimeModule = { name: 'test', ...(tools && { tools }), ...(plans && { plans }) };
  const more: ModuleList = (c, features) => [...(modules?.(c, features) ?? []), testModule];
  const make = () => assembleRuntime({ pollMs: 20, retryBackoffMs: 5, ...core, home, config }, more);
  const harness: TestRuntime = {
    rt: make(),
    home,
    async reopen() {
      await harness.rt.close().catch(() => undefined);
      harness.rt = make();
      return harness.rt;
    },
    another: make,
    async cleanup() {
      await harness.rt.close().catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Creates a playbook task and returns its id. */
export function createPlaybookTask(
  rt: RuntimeCore,
  source: string,
  extra: { inputs?: Record<string, unknown>; baseDir?: string; budget?: Record<string, number>; secretNames?: string[] } = {},
): Promise<Task> {
  return rt.engine.create({
    title: 'test',
    plan: { kind: 'playbook', source, baseDir: extra.baseDir ?? rt.home },
    inputs: extra.inputs ?? {},
    ...(extra.budget && { budget: extra.budget }),
    ...(extra.secretNames && { secretNames: extra.secretNames }),
  });
}

/** Polls until the task reaches one of the states (event-driven code, real time). */
export async function waitForState(
  rt: Pick<RuntimeCore, 'engine'>,
  taskId: string,
  states: TaskState[],
  timeoutMs = 20_000,
): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await rt.engine.get(taskId);
    if (states.includes(task.state)) return task;
    if (Date.now() > deadline)
      throw new Error(`task ${taskId} stayed ${task.state} (${task.stateReason ?? ''}); wanted ${states.join('|')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A clock the test moves by hand; sleeps resolve when time passes them. */
export class ManualClock implements Clock {
  private waiters: { at: number; resolve: () => void }[] = [];
  constructor(private time = Date.UTC(2026, 10, 29, 12)) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
    const due = this.waiters.filter((w) => w.at <= this.time);
    this.waiters = this.waiters.filter((w) => w.at > this.time);
    for (const w of due) w.resolve();
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      this.waiters.push({ at: this.time + ms, resolve });
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
}
