import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { ManualClock, openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime | undefined;
afterEach(async () => h?.cleanup());

const WRITE = `
name: write-note
steps:
  - { id: write, tool: fs.write, args: { path: note.txt, content: "hi" } }
`;

/** Default rules allow workspace writes; the `locked` profile denies them, `open` is empty. */
const CONFIG = { policy: { rules: { deny: ['fs.delete'] }, profiles: { locked: { deny: ['fs.write'] }, open: {} } } };

const call = (rt: Runtime, method: string, params: unknown) =>
  rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ['operator.admin'], clientId: 't' });

describe('policy profiles end to end', () => {
  it('tasks.create with a profile: its rules decide; an unknown profile is refused with invalid_params and nothing stored', async () => {
    h = openTestRuntime({ config: CONFIG });
    const { rt } = h;
    const locked = (await call(rt, 'tasks.create', { playbook: { source: WRITE }, policyProfile: 'locked', start: true })) as {
      result: { id: string };
    };
    const done = await waitForState(rt, locked.result.id, ['failed', 'succeeded']);
    expect(done.state).toBe('failed');
    expect((await rt.engine.steps(done.id))[0]).toMatchObject({
      status: 'denied',
      policy: { source: 'rule', rule: 'fs.write', profile: 'locked' },
    });

    const unknown = await call(rt, 'tasks.create', { playbook: { source: WRITE }, policyProfile: 'lockd' });
    expect(unknown).toMatchObject({
      error: { code: 'invalid_params', message: 'unknown policy profile "lockd" (config policy.profiles: defined: locked, open)' },
    });
    expect((await rt.store.tasks.list({ limit: 10 })).map((t) => t.id)).toEqual([locked.result.id]);
  });

  it('a task uses its agent’s profile unless it names its own', async () => {
    h = openTestRuntime({ config: CONFIG });
    const { rt } = h;
    expect(await call(rt, 'agents.create', { name: 'careful', policyProfile: 'locked' })).toMatchObject({
      result: { policyProfile: 'locked' },
    });
    const viaAgent = (await call(rt, 'tasks.create', { playbook: { source: WRITE }, agent: 'careful', start: true })) as {
      result: { id: string };
    };
    expect((await waitForState(rt, viaAgent.result.id, ['failed', 'succeeded'])).state).toBe('failed');
    const own = (await call(rt, 'tasks.create', { playbook: { source: WRITE }, agent: 'careful', policyProfile: 'open', start: true })) as {
      result: { id: string };
    };
    expect((await waitForState(rt, own.result.id, ['failed', 'succeeded'])).state).toBe('succeeded');
    expect((await rt.engine.steps(own.result.id))[0]?.policy).toMatchObject({ effect: 'allow', agent: 'careful', profile: 'open' });
  });

  it('agents.create and agents.update refuse a profile the config does not define', async () => {
    h = openTestRuntime({ config: CONFIG });
    expect(await call(h.rt, 'agents.create', { name: 'x', policyProfile: 'nope' })).toMatchObject({ error: { code: 'invalid_params' } });
    await call(h.rt, 'agents.create', { name: 'x' });
    expect(await call(h.rt, 'agents.update', { name: 'x', patch: { policyProfile: 'nope' } })).toMatchObject({
      error: { code: 'invalid_params', message: expect.stringContaining('unknown policy profile "nope"') },
    });
  });

  it('a cron job whose agent’s profile left the config is blocked with the reason when it fires, creating no task', async () => {
    const clock = new ManualClock();
    const first = openTestRuntime({ clock, config: CONFIG });
    await first.rt.agents.create({ name: 'nightly-bot', policyProfile: 'locked' });
    const job = await first.rt.scheduler.add({
      name: 'nightly',
      schedule: '0 * * * *',
      agentId: 'nightly-bot',
      target: { kind: 'playbook', source: WRITE },
    });
    await first.rt.close();

    // The runtime restarts with a config that no longer defines `locked`.
    h = openTestRuntime({
      clock,
      home: first.home,
      config: { policy: { profiles: { open: {} } } },
    });
    const scheduler = h.rt.scheduler;
    await expect(scheduler.update(job.id, {})).rejects.toThrow(/unknown policy profile "locked".*nightly-bot/);
    clock.advance(60 * 60_000);
    const [run] = await scheduler.tick();
    expect(run).toMatchObject({ outcome: 'blocked' });
    expect(run?.reason).toContain('unknown policy profile "locked"');
    expect(await scheduler.get(job.id)).toMatchObject({ status: 'blocked', blockedReason: run?.reason });
    expect(await h.rt.store.tasks.list({ limit: 10 })).toEqual([]);
  });
});
