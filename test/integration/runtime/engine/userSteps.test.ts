import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Step } from '../../../../electron/contract/index.js';
import { systemClock } from '../../../../electron/runtime/clock.js';
import { recordUserStep, USER_STEP_INDEX_BASE } from '../../../../electron/runtime/engine/userSteps.js';
import { fixturePlaybook } from '../../../support/cliSandbox.js';
import { createPlaybookTask, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';
import { Gate } from '../scheduler/cronFixtures.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const TWO_WRITES = readFileSync(fixturePlaybook('two-writes.yaml'), 'utf8');

describe('steps a person performed (takeover)', () => {
  it('are finished rows past the plan, traced as the user’s, and a playbook still runs every step of its own', async () => {
    h = openTestRuntime();
    const task = await createPlaybookTask(h.rt, TWO_WRITES);
    const events: Step[] = [];
    h.rt.bus.on({ events: ['task.step'] }, (f) => events.push(f.data as Step));
    const deps = { store: h.rt.store, trace: h.rt.trace, redactor: h.rt.redactor, clock: systemClock, emit: h.rt.bus.emit.bind(h.rt.bus) };

    const ok = await recordUserStep(deps, task.id, {
      tool: 'gui.user_action',
      args: { action: 'key', keys: ['enter'] },
      output: { action: 'key', settled: true },
      startedAt: Date.now(),
    });
    const bad = await recordUserStep(deps, task.id, {
      tool: 'gui.user_action',
      args: { action: 'move', x: 1, y: 1 },
      error: 'gone',
      startedAt: Date.now(),
    });
    expect([ok.index, ok.status, bad.index, bad.status, bad.error]).toEqual([
      USER_STEP_INDEX_BASE,
      'completed',
      USER_STEP_INDEX_BASE + 1,
      'failed',
      'gone',
    ]);
    expect(events.map((s) => s.id)).toEqual([ok.id, bad.id]);

    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    // Listed as they happened: the person acted before the playbook ran.
    expect((await h.rt.engine.steps(task.id)).map((s) => [s.index, s.tool, s.status])).toEqual([
      [USER_STEP_INDEX_BASE, 'gui.user_action', 'completed'],
      [USER_STEP_INDEX_BASE + 1, 'gui.user_action', 'failed'],
      [0, 'fs.write', 'completed'],
      [1, 'fs.write', 'completed'],
    ]);
    const byUser = (await h.rt.trace.page(task.id, 0, 100)).events.filter((e) => e.data.actor === 'user');
    expect(byUser.map((e) => [e.type, e.stepId])).toEqual([
      ['step.completed', ok.id],
      ['step.failed', bad.id],
    ]);
  });

  it('are listed in time order among the agent’s steps: the one done while step 1 ran comes before step 2', async () => {
    const gate = new Gate();
    let entered!: () => void;
    const inStep1 = new Promise<void>((r) => (entered = r));
    const hold = testTool({ name: 'test.gate', risk: 'read', readOnly: true, idempotent: true, run: () => (entered(), gate.wait()) });
    h = openTestRuntime({ tools: [hold] });
    const task = await createPlaybookTask(
      h.rt,
      'name: held\nsteps:\n  - { id: wait, tool: test.gate, args: {} }\n  - { id: write, tool: fs.write, args: { path: a.txt, content: a } }\n',
    );
    const deps = { store: h.rt.store, trace: h.rt.trace, redactor: h.rt.redactor, clock: systemClock, emit: h.rt.bus.emit.bind(h.rt.bus) };
    const running = h.rt.engine.run(task.id);
    await inStep1;
    await new Promise((r) => setTimeout(r, 5));
    await recordUserStep(deps, task.id, {
      tool: 'gui.user_action',
      args: { action: 'type', text: '你好' },
      output: {},
      startedAt: Date.now(),
    });
    await new Promise((r) => setTimeout(r, 5));
    gate.open();
    expect((await running).state).toBe('succeeded');
    expect((await h.rt.engine.steps(task.id)).map((s) => s.tool)).toEqual(['test.gate', 'gui.user_action', 'fs.write']);
  }, 10_000);

  it('a registered secret never reaches the row or the trace', async () => {
    h = openTestRuntime();
    const task = await createPlaybookTask(h.rt, TWO_WRITES);
    h.rt.redactor.add('typed_by_user', 'correct horse battery');
    const deps = { store: h.rt.store, trace: h.rt.trace, redactor: h.rt.redactor, clock: systemClock, emit: h.rt.bus.emit.bind(h.rt.bus) };
    await recordUserStep(deps, task.id, {
      tool: 'gui.user_action',
      args: { action: 'type', text: 'correct horse battery' },
      output: { note: 'typed correct horse battery' },
      startedAt: Date.now(),
    });
    const stored = JSON.stringify([await h.rt.engine.steps(task.id), await h.rt.trace.page(task.id, 0, 100)]);
    expect(stored).not.toContain('correct horse');
    expect(stored).toContain('[secret:typed_by_user]');
  });
});
