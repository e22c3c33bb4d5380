import { openStoreTestRuntime, type StoreKind } from '../../../support/storeKinds.js';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import type { Scheduler } from '../../../../electron/runtime/scheduler/index.js';
import { ManualClock, type TestRuntime, type TestRuntimeOptions } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';

/** A playbook that writes a report and checks it exists. */
export const REPORT_PLAYBOOK = `
name: hourly-report
steps:
  - id: write
    tool: fs.write
    args: { path: out/report.txt, content: "report\\n" }
acceptance:
  - { type: file_exists, path: out/report.txt }
`;

/** A playbook whose one step waits until the test opens the gate (keeps a run active). */
export const GATED_PLAYBOOK = `
name: slow-job
steps:
  - id: wait
    tool: test.gate
    args: { key: k }
`;

/** A runtime on a manual clock with the scheduler's handlers and a gate tool. */
export async function cronRuntime(
  home?: string,
  plans?: TestRuntimeOptions['plans'],
  kind: StoreKind = 'sqlite',
): Promise<TestRuntime & { clock: ManualClock; gate: Gate; scheduler(): Scheduler }> {
  const clock = new ManualClock();
  const gate = new Gate();
  const tool = testTool({ name: 'test.gate', risk: 'read', readOnly: true, idempotent: true, run: () => gate.wait() });
  const h = await openStoreTestRuntime(kind, { clock, tools: [tool], ...(home && { home }), ...(plans && { plans }) });
  return Object.assign(h, { clock, gate, scheduler: () => h.rt.scheduler });
}

/** Holds calls until opened. */
export class Gate {
  private opened = false;
  private waiters: (() => void)[] = [];
  wait(): Promise<unknown> {
    return this.opened ? Promise.resolve({ ok: true }) : new Promise((resolve) => this.waiters.push(() => resolve({ ok: true })));
  }
  open(): void {
    this.opened = true;
    for (const w of this.waiters.splice(0)) w();
  }
}

/** Minutes and hours in ms. */
export const MIN = 60_000;
export const HOUR = 60 * MIN;

/** The tasks a job created, oldest first. */
export const jobTasks = async (rt: Runtime, jobId: string) => (await rt.scheduler.runs(jobId, 500)).filter((r) => r.taskId).reverse();
