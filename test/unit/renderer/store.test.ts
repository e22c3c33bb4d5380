import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Step, type Task } from '../../../electron/contract/index.js';
import type { RuntimeClient, RuntimeEvent } from '../../../renderer/src/client/runtimeClient.js';
import { RuntimeError } from '../../../renderer/src/client/runtimeClient.js';
import { pendingApprovals } from '../../../renderer/src/stores/approvalsSlice.js';
import { attachClient, createAppStore, type AppStore } from '../../../renderer/src/stores/store.js';
import { mergeStep, newerTask, sortedTasks } from '../../../renderer/src/stores/tasksSlice.js';
import { examplePlaybook } from '../../support/cliSandbox.js';
import { pollUntil } from '../../support/poll.js';
import { openTestRuntime, type TestRuntime } from '../../support/runtime.js';

const CLEANUP = readFileSync(examplePlaybook('cleanup-old-logs.yaml'), 'utf8');

/** A RuntimeClient over a real runtime's dispatcher and event bus, as the Electron IPC bridge will be. */
function inProcessClient(harness: TestRuntime): RuntimeClient {
  const { dispatcher, bus } = harness.rt;
  const listeners = new Set<(e: RuntimeEvent) => void>();
  const off = bus.on({}, (frame) => listeners.forEach((l) => l(frame as RuntimeEvent)));
  let id = 0;
  return {
    async call(method, params) {
      const response = await dispatcher.dispatch({ id: ++id, method, params }, { scopes: ALL_SCOPES, clientId: 'renderer-test' });
      if ('error' in response) throw new RuntimeError(response.error);
      return response.result as never;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose: () => () => undefined,
    close: off,
  };
}

let harness: TestRuntime | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

const waitFor = <T>(what: string, store: AppStore, pick: (s: ReturnType<AppStore['getState']>) => T | undefined) =>
  pollUntil(what, () => pick(store.getState()), { timeoutMs: 20_000 });

describe('renderer store against a real runtime', () => {
  it('loads tasks, streams steps and the approval prompt, decides it and pages the trace', async () => {
    harness = openTestRuntime();
    const store = createAppStore();
    await attachClient(store, inProcessClient(harness));
    expect(store.getState()).toMatchObject({ connection: 'connected', listStatus: 'ready', tasks: {}, approvalsStatus: 'ready' });

    const taskId = await store.getState().createTask(CLEANUP, 'clean logs');
    const approvalId = await waitFor('the approval prompt', store, (s) => s.openApprovalId);
    expect(pendingApprovals(store.getState().approvals)).toEqual([expect.objectContaining({ id: approvalId, taskId, tool: 'fs.delete' })]);
    expect(store.getState().steps[taskId]?.map((s) => s.tool)).toEqual(['fs.write', 'fs.write', 'fs.list', 'fs.delete']);

    await store.getState().decide(approvalId, 'approve');
    expect(store.getState().openApprovalId).toBeUndefined();
    await waitFor('the task to succeed', store, (s) => s.tasks[taskId]?.state === 'succeeded' || undefined);
    expect(store.getState().steps[taskId]?.every((s) => s.status === 'completed')).toBe(true);

    await store.getState().loadTrace(taskId);
    const trace = store.getState().traces[taskId];
    expect(trace?.status).toBe('ready');
    expect(trace?.events.map((e) => e.seq)).toEqual(trace?.events.map((_, i) => i + 1));
    expect(trace?.events.map((e) => e.type)).toEqual(expect.arrayContaining(['approval.requested', 'approval.resolved', 'check.result']));
  });

  it('a deny carries its reason and a failing call lands in the error state', async () => {
    harness = openTestRuntime();
    const store = createAppStore();
    await attachClient(store, inProcessClient(harness));
    const taskId = await store.getState().createTask(CLEANUP);
    const approvalId = await waitFor('the approval prompt', store, (s) => s.openApprovalId);
    await store.getState().decide(approvalId, 'deny', 'keep it for the audit');
    expect(store.getState().approvals[approvalId]).toMatchObject({ status: 'denied', decisionReason: 'keep it for the audit' });
    await waitFor('the task to end', store, (s) =>
      ['failed', 'cancelled', 'succeeded'].includes(s.tasks[taskId]?.state ?? '') ? true : undefined,
    );

    await expect(store.getState().createTask('not: [a playbook')).rejects.toMatchObject({ code: 'invalid_playbook' });
    await store.getState().loadTrace('no-such-task');
    expect(store.getState().traces['no-such-task']?.status).toBe('error');
  });
});

describe('task slice helpers', () => {
  const step = (id: string, index: number, attempt = 1): Step => ({ id, index, attempt }) as Step;
  const task = (id: string, createdAt: string, updatedAt = createdAt): Task => ({ id, createdAt, updatedAt }) as Task;

  it('keeps steps in plan order and replaces a step by id', () => {
    let steps = mergeStep([], step('b', 1));
    steps = mergeStep(steps, step('a', 0));
    steps = mergeStep(steps, step('c', 1, 2));
    steps = mergeStep(steps, { ...step('b', 1), status: 'completed' } as Step);
    expect(steps.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(steps[1]?.status).toBe('completed');
  });

  it('an older task version never overwrites a newer one, and lists sort newest first', () => {
    const fresh = task('t', '2026-01-01', '2026-01-02');
    expect(newerTask(fresh, task('t', '2026-01-01', '2026-01-01'))).toBe(fresh);
    expect(sortedTasks({ a: task('a', '2026-01-01'), b: task('b', '2026-02-01') }).map((t) => t.id)).toEqual(['b', 'a']);
  });
});
