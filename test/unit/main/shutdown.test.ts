import { afterEach, describe, expect, it } from 'vitest';
import { runtimeShutdownParts, shutdownRuntime, takePausedAtQuit, type ShutdownParts } from '../../../electron/main/shutdown.js';
import { createPlaybookTask, openTestRuntime, waitForState, type TestRuntime } from '../../support/runtime.js';
import { testTool } from '../../support/testTools.js';
import { pollUntil } from '../../support/poll.js';

let harness: TestRuntime | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

/** A recording double: only the order of the calls matters here. */
function recorder(idleInTime: boolean): { parts: ShutdownParts; calls: string[] } {
  const calls: string[] = [];
  const parts: ShutdownParts = {
    stopScheduler: async () => void calls.push('stopScheduler'),
    closeBridge: () => void calls.push('closeBridge'),
    workingTasks: async () => [{ id: 't1' }, { id: 't2' }] as never,
    pause: async (id) => void calls.push(`pause ${id}`),
    waitIdle: async () => (calls.push('waitIdle'), idleInTime),
    rememberPaused: (ids) => void calls.push(`remember ${ids.join(',')}`),
    closeRuntime: async () => void calls.push('closeRuntime'),
    closeStore: async () => void calls.push('closeStore'),
  };
  return { parts, calls };
}

const TWO_STEPS = 'name: two-steps\nsteps:\n  - id: slow\n    tool: test.gate\n  - id: after\n    tool: test.gate\n';

describe('Electron main shutdown', () => {
  it('stops new work first, pauses working runs, remembers them, then closes the runtime', async () => {
    const { parts, calls } = recorder(true);
    expect(await shutdownRuntime(parts, 1000)).toEqual(['t1', 't2']);
    expect(calls).toEqual(['stopScheduler', 'closeBridge', 'pause t1', 'pause t2', 'remember t1,t2', 'waitIdle', 'closeRuntime']);
  });

  it('a run that does not reach a step boundary in time is left to recovery: only the store closes', async () => {
    const { parts, calls } = recorder(false);
    await shutdownRuntime(parts, 1);
    expect(calls.slice(-2)).toEqual(['waitIdle', 'closeStore']);
  });

  it('with a real runtime: the step in flight completes, the task pauses, and the next start resumes it to success', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const gate = testTool({
      name: 'test.gate',
      run: async () => {
        calls += 1;
        if (calls === 1) await released; // the first step is in flight when the app quits
        return { ok: true };
      },
    });
    harness = openTestRuntime({ tools: [gate] });
    const rt = harness.rt;
    const task = await createPlaybookTask(rt, TWO_STEPS);
    await rt.engine.start(task.id);
    await pollUntil('the first step to start', () => (calls === 1 ? true : undefined));

    const real = runtimeShutdownParts(rt, rt.scheduler, () => undefined);
    // The in-flight call finishes only after the pause was asked for: the run must stop at the boundary.
    const paused = await shutdownRuntime({ ...real, pause: async (id) => (await real.pause(id), release()) }, 20_000);
    expect(paused).toEqual([task.id]);

    const next = harness.another();
    harness.rt = next;
    expect((await next.engine.get(task.id)).state).toBe('paused');
    expect((await next.engine.steps(task.id)).map((s) => s.status)).toEqual(['completed']);
    const toResume = await takePausedAtQuit(next.home, async (id) => (await next.store.tasks.get(id))?.state);
    expect(toResume).toEqual([task.id]);
    expect(await takePausedAtQuit(next.home, async () => 'paused')).toEqual([]); // taken once
    for (const id of toResume) await next.engine.resume(id);
    await waitForState(next, task.id, ['succeeded']);
    expect(calls).toBe(2);
  });
  it('a run still working after the grace period keeps no pause request, so the next start carries it on', async () => {
    let started = false;
    const hang = testTool({
      name: 'test.hang',
      run: () => ((started = true), new Promise(() => undefined)), // never reaches a step boundary
    });
    harness = openTestRuntime({ tools: [hang] });
    const rt = harness.rt;
    const task = await createPlaybookTask(rt, 'name: hang\nsteps:\n  - id: stuck\n    tool: test.hang\n');
    await rt.engine.start(task.id);
    await pollUntil('the call to start', () => (started ? true : undefined));
    expect(
      await shutdownRuntime(
        runtimeShutdownParts(rt, rt.scheduler, () => undefined),
        1,
      ),
    ).toEqual([task.id]);

    const next = harness.another();
    harness.rt = next;
    expect((await next.store.tasks.get(task.id))?.state).toBe('running');
    expect((await next.store.tasks.control(task.id)).control).toBeNull();
  });
});
