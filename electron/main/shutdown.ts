import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Task, TaskState } from '../contract/index.js';
import type { RuntimeHandle } from '../runtime/core/runtimeCore.js';
import { writeFileAtomicSync } from '../runtime/secrets/atomicFile.js';

/** Where main remembers the tasks its shutdown paused, to resume them on the next start. */
export const PAUSED_AT_QUIT_FILE = 'paused-at-quit.json';

/** States in which a run is doing work in this process (waiting tasks hold no run). */
const WORKING: readonly TaskState[] = ['planning', 'running', 'retrying'];

/** What the shutdown sequence drives; main wires the real runtime, tests a recording double. */
export interface ShutdownParts {
  /** Stops cron and the background queue so nothing new starts. */
  stopScheduler(): Promise<void>;
  /** Stops serving the window (no new RPC calls). */
  closeBridge(): void;
  /** Tasks with a run working in this process. */
  workingTasks(): Promise<Task[]>;
  /** Asks a run to pause after its current step (resolves once the request is recorded). */
  pause(taskId: string): Promise<void>;
  /** Resolves true once no run is left in this process, false if `ms` passed first. */
  waitIdle(ms: number): Promise<boolean>;
  /** Remembers the paused ids for the next start. */
  rememberPaused(taskIds: string[]): void;
  /** Closes the runtime: waits for runs, releases MCP, browsers and sandboxes, closes the store. */
  closeRuntime(): Promise<void>;
  /** Closes only the store (runs still in flight stay recorded as running: the next start recovers them). */
  closeStore(): Promise<void>;
}

/**
 * The app's quit sequence: nothing new starts, working runs pause at their next step boundary
 * (so no step is cut in half and left uncertain), then the runtime closes. A run that does not
 * reach a boundary within `graceMs` is left as the crash path leaves it: recorded and recovered
 * by the next start. Returns the ids it paused.
 */
export async function shutdownRuntime(parts: ShutdownParts, graceMs: number): Promise<string[]> {
  await parts.stopScheduler();
  parts.closeBridge();
  const paused = (await parts.workingTasks()).map((task) => task.id);
  for (const id of paused) await parts.pause(id);
  parts.rememberPaused(paused);
  if (await parts.waitIdle(graceMs)) await parts.closeRuntime();
  else await parts.closeStore();
  return paused;
}

/** Picks the tasks with a run working in this process. */
export function workingTasks(tasks: readonly Task[], isRunningHere: (taskId: string) => boolean): Task[] {
  return tasks.filter((t) => WORKING.includes(t.state) && isRunningHere(t.id));
}

/** Writes the ids the quit paused (an empty list removes the file). */
export function writePausedAtQuit(home: string, taskIds: readonly string[]): void {
  const file = path.join(home, PAUSED_AT_QUIT_FILE);
  if (taskIds.length === 0) return void rmSync(file, { force: true });
  writeFileAtomicSync(file, Buffer.from(JSON.stringify({ taskIds })), { mode: 0o600 });
}

/**
 * Takes (reads and removes) the ids the last quit paused. Only those still paused are returned:
 * a task someone resumed or cancelled since, from the CLI say, is theirs.
 */
export async function takePausedAtQuit(home: string, stateOf: (taskId: string) => Promise<TaskState | undefined>): Promise<string[]> {
  const file = path.join(home, PAUSED_AT_QUIT_FILE);
  if (!existsSync(file)) return [];
  let ids: unknown;
  try {
    ids = (JSON.parse(readFileSync(file, 'utf8')) as { taskIds?: unknown }).taskIds;
  } catch {
    ids = [];
  }
  rmSync(file, { force: true });
  const paused: string[] = [];
  for (const id of Array.isArray(ids) ? ids : []) if (typeof id === 'string' && (await stateOf(id)) === 'paused') paused.push(id);
  return paused;
}

/** The real parts over a runtime, its scheduler and the window's bridge (what main passes to shutdownRuntime). */
export function runtimeShutdownParts(rt: RuntimeHandle, scheduler: { stop(): Promise<void> }, closeBridge: () => void): ShutdownParts {
  return {
    stopScheduler: () => scheduler.stop(),
    closeBridge,
    workingTasks: async () => workingTasks(await rt.store.tasks.inStates([...WORKING]), (id) => rt.engine.isRunningHere(id)),
    pause: async (id) => void (await rt.engine.pause(id)),
    waitIdle: (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
      return Promise.race([rt.engine.idle().then(() => true), late]).finally(() => clearTimeout(timer));
    },
    rememberPaused: (ids) => writePausedAtQuit(rt.home, ids),
    closeRuntime: () => rt.close(),
    closeStore: async () => {
      // A run that missed the grace period is left as a crash leaves it: withdraw the quit's
      // pause request, or the next start would recover the run only for it to pause for good.
      for (const task of await rt.store.tasks.inStates([...WORKING])) await rt.store.tasks.requestControl(task.id, null);
      await rt.lease.close();
      await rt.store.close();
    },
  };
}
