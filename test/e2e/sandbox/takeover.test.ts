import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopModule } from '../../../electron/capabilities/gui/desktopModule.js';
import type { MethodName, ScreenFrame, Step, TraceEvent } from '../../../electron/contract/index.js';
import { missing } from '../../support/requirements.js';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../support/runtime.js';
import { desktopContainers, desktopImage, notePagePlaybook, openDesktopRuntime } from '../../support/sandboxImage.js';

const skip = missing('docker');

// The agent focuses the note field, then wants to click "Place order" (an approval). Meanwhile a
// person takes over, types the note, and releases; the agent's click then saves what they typed.
const ORDER = notePagePlaybook({
  name: 'takeover',
  button: 'Place order 提交订单',
  check: "the person's note was saved",
  saved: 'typed by a person 你好',
});

const SECRET = 'pw-hunter2-secret';

describe.skipIf(skip)('human takeover and the live view (real container)', () => {
  let h: TestRuntime;
  let parts: DesktopModule;
  let image: string;

  beforeAll(async () => {
    image = await desktopImage();
  }, 600_000);
  afterEach(async () => {
    await h?.cleanup();
  });

  /** Calls a method through the method table, as a client of the gateway would. */
  async function call<T>(method: MethodName, params: unknown): Promise<{ result?: T; error?: { code: string; message: string } }> {
    const response = await h.rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ['operator.admin'], clientId: 'test' });
    return response as { result?: T; error?: { code: string; message: string } };
  }
  const containers = () => desktopContainers(h.home);

  it("records the person's actions as steps, streams frames throughout, and the agent continues from their screen", async () => {
    ({ h, parts } = openDesktopRuntime(image, { liveFps: 5 }));
    const frames: ScreenFrame[] = [];
    h.rt.bus.on({ events: ['screen.frame'] }, (f) => frames.push(f.data as ScreenFrame));

    const task = await createPlaybookTask(h.rt, ORDER);
    const firstRun = h.rt.engine.run(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval'], 120_000);

    // Not taken over yet: the desktop is the agent's.
    const refused = await call('screen.input', { taskId: task.id, action: { action: 'type', text: 'too early' } });
    expect(refused.error).toMatchObject({ code: 'conflict' });
    expect(refused.error!.message).toMatch(/not taken over.*tasks\.takeover/);

    const taken = await call<{ state: string }>('tasks.takeover', { taskId: task.id });
    expect(taken.result?.state).toBe('paused');
    expect((await firstRun).state).toBe('paused');

    // The live view keeps streaming the paused desktop while the person works on it.
    const before = frames.length;
    await expect.poll(() => frames.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 4);
    const seqs = frames.map((f) => f.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(frames.every((f) => f.taskId === task.id)).toBe(true);
    const latest = await call<ScreenFrame>('screen.latest', { taskId: task.id });
    expect(latest.result?.seq).toBeGreaterThanOrEqual(before);
    expect(Buffer.from(latest.result!.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // JPEG

    // Sent back to back while a commit holds the store: the first waits for it to read the task,
    // the second does not — they still reach the desktop in the order sent.
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const holding = h.rt.store.transaction(() => new Promise<void>((resolve) => ((release = resolve), entered())));
    await inside;
    const firstPart = call<{ step: Step }>('screen.input', { taskId: task.id, action: { action: 'type', text: 'typed by ' } });
    release();
    await holding;
    const typed = await call<{ step: Step }>('screen.input', {
      taskId: task.id,
      action: { action: 'type', text: 'a person 你好' },
    });
    expect((await firstPart).error).toBeUndefined();
    expect(typed.error).toBeUndefined();
    expect(typed.result!.step).toMatchObject({
      tool: 'gui.user_action',
      status: 'completed',
      args: { action: 'type', text: 'a person 你好' },
    });
    const hidden = await call<{ step: Step }>('screen.input', {
      taskId: task.id,
      action: { action: 'type', text: ` ${SECRET}` },
      secret: true,
    });
    expect(hidden.result!.step.args).toEqual({ action: 'type', text: `[secret: ${SECRET.length + 1} characters]` });

    const got = await call<{ steps: Step[] }>('tasks.get', { taskId: task.id });
    const userSteps = got.result!.steps.filter((s) => s.tool === 'gui.user_action');
    expect(userSteps.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    const trace = await call<{ events: TraceEvent[] }>('traces.get', { taskId: task.id, limit: 1000 });
    expect(trace.result!.events.filter((e) => e.data.actor === 'user').map((e) => [e.type, e.data.tool])).toEqual([
      ['step.completed', 'gui.user_action'],
      ['step.completed', 'gui.user_action'],
      ['step.completed', 'gui.user_action'],
    ]);

    // Released: the agent resumes at its pending click, which saves what the person typed.
    await call('tasks.release', { taskId: task.id });
    await waitForState(h.rt, task.id, ['waiting_approval'], 60_000);
    const [approval] = await h.rt.approvals.list({ taskId: task.id, status: 'pending' });
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed'], 120_000);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(done.checks[0]).toMatchObject({ name: "the person's note was saved", passed: true });

    // The secret the person typed reached neither the step rows nor the trace in clear.
    const stored = JSON.stringify([await h.rt.engine.steps(task.id), await h.rt.trace.page(task.id, 0, 1000)]);
    expect(stored).not.toContain(SECRET);

    // The task ended: its desktop goes, and so does its stream.
    await expect.poll(containers, { timeout: 20_000 }).toEqual([]);
    expect(parts.live.streaming(task.id)).toBe(false);
    const after = frames.length;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(frames.length).toBe(after);
  }, 300_000);
});
