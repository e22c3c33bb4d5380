import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';
import { STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';
import { cronRuntime, GATED_PLAYBOOK, HOUR, jobTasks, MIN, REPORT_PLAYBOOK } from './cronFixtures.js';

let h: Awaited<ReturnType<typeof cronRuntime>>;
afterEach(async () => {
  h.gate.open();
  await h.scheduler().stop();
  await h.cleanup();
});

/** The manual clock jumps hours while a gated task runs: keep its wall-time budget out of the way. */
const LONG = { maxWallMs: 100 * HOUR };
const hourly = (extra: Record<string, unknown> = {}) => ({
  name: 'report',
  schedule: '0 * * * *',
  target: { kind: 'playbook', source: REPORT_PLAYBOOK },
  ...extra,
});

describe.each(STORE_KINDS)('cron scheduler on a manual clock (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('fires on schedule, runs the playbook through the queue and records the run', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const scheduler = h.scheduler();
    scheduler.start();
    const job = await scheduler.add(hourly());
    expect(job.nextRunAt).toBe('2026-11-29T13:00:00.000Z');

    h.clock.advance(30 * MIN);
    expect(await scheduler.tick()).toEqual([]);
    h.clock.advance(30 * MIN);
    // The started loop wakes on the same clock move and may fire first; the job's row lock lets one
    // of the two record the run, and the other returns nothing once it has.
    const ticked = await scheduler.tick();
    const recorded = await scheduler.runs(job.id);
    expect(recorded).toHaveLength(1);
    const [run] = recorded;
    expect(run).toMatchObject({ outcome: 'queued', trigger: 'schedule', scheduledFor: '2026-11-29T13:00:00.000Z' });
    expect(ticked.map((r) => r.id)).toEqual(ticked.length ? [run!.id] : []);

    await scheduler.queue.drain();
    const [view] = await scheduler.runs(job.id);
    expect(view).toMatchObject({ taskId: run!.taskId, taskState: 'succeeded' });
    expect(existsSync(path.join((await h.rt.engine.get(run!.taskId!)).workspace, 'out/report.txt'))).toBe(true);
    expect((await scheduler.get(job.id)).nextRunAt).toBe('2026-11-29T14:00:00.000Z');
  });

  it('reads the schedule in the job time zone', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const job = await h.scheduler().add(hourly({ schedule: '0 9 * * *', timezone: 'Asia/Shanghai' }));
    expect(job.nextRunAt).toBe('2026-11-30T01:00:00.000Z'); // 09:00 in Shanghai is 01:00 UTC
  });

  it('after downtime spanning two fire times, missed=skip records both as skipped and runs nothing', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const job = await h.scheduler().add(hourly({ missed: 'skip' }));
    await h.reopen(); // the runtime goes down…
    h.clock.advance(2 * HOUR + 30 * MIN); // …and misses 13:00 and 14:00
    const runs = await h.scheduler().tick();
    expect(runs.map((r) => [r.scheduledFor, r.outcome])).toEqual([
      ['2026-11-29T13:00:00.000Z', 'skipped_missed'],
      ['2026-11-29T14:00:00.000Z', 'skipped_missed'],
    ]);
    expect(await h.rt.store.tasks.list({ limit: 10 })).toEqual([]);
    expect((await h.scheduler().get(job.id)).nextRunAt).toBe('2026-11-29T15:00:00.000Z');
    expect(runs.map((r) => r.reasonText?.code)).toEqual(['cron.missedSkip', 'cron.missedSkip']);
  });

  it('after downtime spanning two fire times, missed=run_once runs exactly one catch-up task', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const job = await h.scheduler().add(hourly({ missed: 'run_once' }));
    await h.reopen();
    h.clock.advance(2 * HOUR + 30 * MIN);
    const scheduler = h.scheduler();
    scheduler.queue.start();
    const runs = await scheduler.tick();
    expect(runs.map((r) => [r.scheduledFor, r.trigger, r.outcome])).toEqual([
      ['2026-11-29T13:00:00.000Z', 'schedule', 'skipped_missed'],
      ['2026-11-29T14:00:00.000Z', 'catch_up', 'queued'],
    ]);
    await scheduler.queue.drain();
    expect((await jobTasks(h.rt, job.id)).map((r) => r.taskState)).toEqual(['succeeded']);
    expect(await scheduler.tick()).toEqual([]); // nothing fires twice
  });

  it('overlap=skip skips a fire time while the previous task is still running', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const scheduler = h.scheduler();
    scheduler.queue.start();
    const job = await scheduler.add(hourly({ target: { kind: 'playbook', source: GATED_PLAYBOOK }, overlap: 'skip', budget: LONG }));
    h.clock.advance(HOUR);
    const [first] = await scheduler.tick();
    expect(first?.outcome).toBe('queued');
    h.clock.advance(HOUR);
    const [second] = await scheduler.tick();
    expect(second).toMatchObject({ outcome: 'skipped_overlap' });
    expect(second?.reason).toContain(first!.taskId!);
    // The same reason as a code, kept with the run record for the UI's catalogs.
    expect((await scheduler.runs(job.id, 5)).find((r) => r.outcome === 'skipped_overlap')?.reasonText).toEqual({
      code: 'cron.overlapSkip',
      params: { task: first!.taskId! },
    });
    h.gate.open();
    await scheduler.queue.drain();
    h.clock.advance(HOUR);
    expect((await scheduler.tick())[0]?.outcome).toBe('queued');
    await scheduler.queue.drain();
    expect((await jobTasks(h.rt, job.id)).map((r) => r.taskState)).toEqual(['succeeded', 'succeeded']);
  });

  it('overlap=queue runs the next fire after the previous one, never side by side', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const scheduler = h.scheduler();
    scheduler.queue.start();
    const job = await scheduler.add(hourly({ target: { kind: 'playbook', source: GATED_PLAYBOOK }, overlap: 'queue', budget: LONG }));
    h.clock.advance(HOUR);
    await scheduler.tick();
    h.clock.advance(HOUR);
    expect((await scheduler.tick())[0]?.outcome).toBe('queued');
    const [firstTask, secondTask] = (await jobTasks(h.rt, job.id)).map((r) => r.taskId!);
    await new Promise((r) => setTimeout(r, 50));
    expect((await h.rt.engine.get(secondTask!)).state).toBe('queued'); // waits for the first
    h.gate.open();
    await scheduler.queue.drain();
    expect([(await h.rt.engine.get(firstTask!)).state, (await h.rt.engine.get(secondTask!)).state]).toEqual(['succeeded', 'succeeded']);
  });

  it('jobs, runs and the schedule survive a restart of the runtime', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const job = await h.scheduler().add(hourly());
    h.clock.advance(HOUR);
    await h.scheduler().tick(); // queued but not started: the queue is not running
    await h.reopen();
    const scheduler = h.scheduler();
    expect((await scheduler.list()).map((j) => [j.id, j.nextRunAt])).toEqual([[job.id, '2026-11-29T14:00:00.000Z']]);
    scheduler.queue.start(); // the queued task from before the restart runs now
    await scheduler.queue.drain();
    h.clock.advance(HOUR);
    await scheduler.tick();
    await scheduler.queue.drain();
    expect((await scheduler.runs(job.id)).map((r) => [r.scheduledFor, r.taskState])).toEqual([
      ['2026-11-29T14:00:00.000Z', 'succeeded'],
      ['2026-11-29T13:00:00.000Z', 'succeeded'],
    ]);
  });

  it('overlap=skip and missed=run_once hold across a restart: a task still active from before skips the on-time fire', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const job = await h
      .scheduler()
      .add(hourly({ target: { kind: 'playbook', source: GATED_PLAYBOOK }, overlap: 'skip', missed: 'run_once', budget: LONG }));
    h.clock.advance(HOUR);
    const [first] = await h.scheduler().tick(); // 13:00: queued, not started (the queue is not running)
    await h.reopen(); // down across 14:00 and 15:00; back at 15:00, which is on time
    h.clock.advance(2 * HOUR);
    const afterRestart = await h.scheduler().tick();
    expect(afterRestart.map((r) => [r.scheduledFor, r.outcome])).toEqual([
      ['2026-11-29T14:00:00.000Z', 'skipped_missed'],
      ['2026-11-29T15:00:00.000Z', 'skipped_overlap'],
    ]);
    expect(afterRestart[1]?.reason).toContain(first!.taskId!);

    const scheduler = h.scheduler();
    scheduler.queue.start(); // the task queued before the restart runs now, once
    h.gate.open();
    await scheduler.queue.drain();
    h.clock.advance(HOUR);
    expect((await scheduler.tick()).map((r) => r.outcome)).toEqual(['queued']);
    await scheduler.queue.drain();
    expect((await jobTasks(h.rt, job.id)).map((r) => [r.taskId === first!.taskId, r.taskState])).toEqual([
      [true, 'succeeded'],
      [false, 'succeeded'],
    ]);
  });

  it('a job whose playbook file disappeared is blocked with the reason, and no task is created', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const file = path.join(h.home, 'job.yaml');
    writeFileSync(file, REPORT_PLAYBOOK);
    const job = await h.scheduler().add(hourly({ target: { kind: 'playbook', path: file } }));
    rmSync(file);
    h.clock.advance(HOUR);
    const [run] = await h.scheduler().tick();
    expect(run).toMatchObject({ outcome: 'blocked' });
    expect(run?.reason).toContain('cannot read playbook');
    const blocked = await h.scheduler().get(job.id);
    expect(blocked).toMatchObject({ status: 'blocked', blockedReason: run?.reason });
    expect(blocked.nextRunAt).toBeUndefined();
    h.clock.advance(HOUR);
    expect(await h.scheduler().tick()).toEqual([]); // blocked jobs do not fire
    expect(await h.rt.store.tasks.list({ limit: 10 })).toEqual([]);

    writeFileSync(file, REPORT_PLAYBOOK);
    expect(await h.scheduler().update(job.id, {})).toMatchObject({ status: 'active', nextRunAt: '2026-11-29T15:00:00.000Z' });
  });

  it('a goal job carries its model and acceptance checks into every run, so runs need no review', async () => {
    h = await cronRuntime(undefined, withScriptedGoals(new ScriptedPlanner(() => 'done')), kind);
    const checks = [{ type: 'file_exists' as const, path: 'inbox-triaged.md', exists: true }];
    await h.scheduler().add({
      name: 'triage',
      schedule: '*/5 * * * *',
      target: { kind: 'goal', goal: 'triage the inbox', model: 'local:gpt-test', checks },
    });
    h.clock.advance(5 * MIN);
    expect((await h.scheduler().tick())[0]).toMatchObject({ outcome: 'queued' });
    const [task] = await h.rt.store.tasks.list({ limit: 10 });
    expect(task?.plan).toEqual({ kind: 'goal', goal: 'triage the inbox', model: 'local:gpt-test', acceptance: checks });
  });

  it('a goal job fires a goal task of the product planner, its model resolved only when it runs', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const job = await h.scheduler().add({ name: 'triage', schedule: '*/5 * * * *', target: { kind: 'goal', goal: 'triage the inbox' } });
    h.clock.advance(5 * MIN);
    expect((await h.scheduler().tick())[0]).not.toMatchObject({ outcome: 'blocked' });
    expect((await h.scheduler().get(job.id)).status).toBe('active');
    expect((await h.rt.store.tasks.list({ limit: 10 })).map((t) => t.plan.kind)).toEqual(['goal']);
  });
});

describe.each(STORE_KINDS)('cron RPC (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('cron.add rejects a bad expression or time zone with invalid_params', async () => {
    h = await cronRuntime(undefined, undefined, kind);
    const call = (params: unknown) =>
      h.rt.dispatcher.dispatch({ id: 1, method: 'cron.add', params }, { scopes: ['operator.write'], clientId: 't' });
    const badCron = await call(hourly({ schedule: 'every hour' }));
    expect(badCron).toMatchObject({ error: { code: 'invalid_params' } });
    const badZone = await call(hourly({ timezone: 'Mars/Olympus' }));
    expect(badZone).toMatchObject({ error: { code: 'invalid_params' } });
    const ok = await call(hourly());
    expect(ok).toMatchObject({ result: { status: 'active' } });
  });
});
