import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigSchema, type Config, type Task, type TaskState } from '../../electron/contract/index.js';
import { AgentRuntime, type RuntimeOptions } from '../../electron/runtime/agentRuntime.js';
import type { Clock } from '../../electron/runtime/clock.js';

/** A fresh data folder under the OS temp dir. */
export const tempDir = (prefix = 'agent-desk-test-'): string => mkdtempSync(path.join(os.tmpdir(), prefix));

/** A runtime over a real SQLite file in a temp home; `reopen` simulates a process restart. */
export interface TestRuntime {
  rt: AgentRuntime;
  home: string;
  reopen(): Promise<AgentRuntime>;
  cleanup(): Promise<void>;
}

/** Opens a real runtime in a temp home (or the given one). */
export function openTestRuntime(options: Partial<Omit<RuntimeOptions, 'config'>> & { config?: Record<string, unknown> } = {}): TestRuntime {
  const home = options.home ?? tempDir();
  const config: Config = ConfigSchema.parse(options.config ?? {});
  const make = () => new AgentRuntime({ pollMs: 20, retryBackoffMs: 5, ...options, home, config });
  const harness: TestRuntime = {
    rt: make(),
    home,
    async reopen() {
      await harness.rt.close().catch(() => undefined);
      harness.rt = make();
      return harness.rt;
    },
    async cleanup() {
      await harness.rt.close().catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Creates a playbook task and returns its id. */
export function createPlaybookTask(
  rt: AgentRuntime,
  source: string,
  extra: { inputs?: Record<string, unknown>; baseDir?: string; budget?: Record<string, number>; secretNames?: string[] } = {},
): Task {
  return rt.engine.create({
    title: 'test',
    plan: { kind: 'playbook', source, baseDir: extra.baseDir ?? rt.options.home },
    inputs: extra.inputs ?? {},
    ...(extra.budget && { budget: extra.budget }),
    ...(extra.secretNames && { secretNames: extra.secretNames }),
  });
}

/** Polls until the task reaches one of the states (event-driven code, real time). */
export async function waitForState(rt: AgentRuntime, taskId: string, states: TaskState[], timeoutMs = 20_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = rt.engine.get(taskId);
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
