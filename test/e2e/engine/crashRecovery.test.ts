import { readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, fixturePlaybook } from '../../support/cliSandbox.js';
import { EffectsServer } from '../../support/effectsServer.js';
import { createPlaybookTask, openTestRuntime } from '../../support/runtime.js';

const PLAYBOOK = fixturePlaybook('crash-effects.yaml');

/** A small seeded generator, so a failing schedule can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A CLI user whose config trusts the local test API (its POSTs and reads need no approval). */
function sandboxWithPolicy(): CliSandbox {
  const sandbox = new CliSandbox();
  writeFileSync(
    path.join(sandbox.home, 'config.json'),
    JSON.stringify({ policy: { rules: { allow: ['http.request(domain:127.0.0.1)'] }, networkAllow: ['127.0.0.1:*'] } }),
  );
  return sandbox;
}

const newestTaskId = async (sandbox: CliSandbox): Promise<string | undefined> =>
  (await sandbox.run(['tasks', 'list', '--json'])).json<{ tasks: { id: string }[] }>().tasks[0]?.id;

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe('exactly-once side effects across SIGKILL', () => {
  it('killed at varied points and resumed, every task finishes with each effect applied exactly once', async () => {
    const random = seeded(20261129);
    const rounds = 6;
    let kills = 0;
    let replays = 0;
    for (let round = 0; round < rounds; round++) {
      const server = new EffectsServer();
      const api = await server.start();
      const sandbox = sandboxWithPolicy();
      cleanups.push(
        () => server.stop(),
        () => sandbox.cleanup(),
      );

      let taskId: string | undefined;
      let final: { task: { state: string; workspace: string }; checks: { passed: boolean }[] } | undefined;
      for (let attempt = 0; attempt < 40 && !final; attempt++) {
        const args = taskId ? ['run', '--resume', taskId, '--json'] : ['run', PLAYBOOK, '--input', `api=${api}`, '--json'];
        const run = sandbox.spawn(args);
        // Kill either while a request is in flight (effect applied, answer lost) or at a random moment.
        const inFlight = random() < 0.5;
        const killAtRequest = server.requests.length + 1 + Math.floor(random() * 4);
        server.onRequest = (count) => {
          if (inFlight && count === killAtRequest) run.child.kill('SIGKILL');
        };
        const timer = inFlight ? undefined : setTimeout(() => run.child.kill('SIGKILL'), 150 + random() * 700);
        const result = await run.finished(120_000);
        clearTimeout(timer);
        server.onRequest = () => undefined;
        if (result.signal === 'SIGKILL') {
          kills++;
          taskId ??= await newestTaskId(sandbox);
          continue;
        }
        expect(result.code, result.stderr).toBe(0);
        final = JSON.parse(result.stdout);
      }
      expect(final?.task.state).toBe('succeeded');
      expect(final?.checks.every((c) => c.passed)).toBe(true);
      // Exactly once: four effects, one of each, whatever the kills did.
      expect(server.effects.map((e) => e.name).sort()).toEqual(['invoice', 'notify', 'order', 'ship']);
      expect(readFileSync(path.join(final!.task.workspace, 'notes/summary.txt'), 'utf8')).toBe('order-1 invoice-1 ship-1 notify-1\n');
      replays += server.replays;
    }
    // Some interrupted calls really were sent again, and the idempotency key made them harmless.
    expect(replays).toBeGreaterThan(0);
    expect(kills).toBeGreaterThanOrEqual(rounds); // the schedule really interrupted the runs
  }, 600_000);

  it('a non-idempotent call interrupted in flight is never repeated silently: the task waits for the user', async () => {
    const server = new EffectsServer();
    const api = await server.start();
    const sandbox = sandboxWithPolicy();
    cleanups.push(
      () => server.stop(),
      () => sandbox.cleanup(),
    );
    const source = readFileSync(PLAYBOOK, 'utf8').replace('idempotencyKey: true, body: { item: widget }', 'body: { item: widget }');
    const file = path.join(sandbox.home, 'no-key.yaml');
    writeFileSync(file, source);

    const run = sandbox.spawn(['run', file, '--input', `api=${api}`, '--json']);
    server.onRequest = (count) => count === 1 && run.child.kill('SIGKILL');
    expect((await run.finished(60_000)).signal).toBe('SIGKILL');
    server.onRequest = () => undefined;
    expect(server.effects.map((e) => e.name)).toEqual(['order']);
    const taskId = (await newestTaskId(sandbox))!;

    const waiting = await sandbox.run(['run', '--resume', taskId, '--json']);
    expect(waiting.code).toBe(3);
    const report = waiting.json<{ task: { state: string; stateReason: string } }>();
    expect(report.task.state).toBe('waiting_user');
    expect(report.task.stateReason).toContain('step 1 (http.request) was interrupted and may or may not have taken effect');
    expect(server.effects).toHaveLength(1);

    // The user checked the API: the order went through, so skip the step. Later steps use its
    // output, which a skip cannot provide, so the run fails clearly instead of guessing.
    const skipped = await sandbox.run(['run', '--resume', taskId, '--on-uncertain', 'skip', '--json']);
    const after = skipped.json<{ task: { state: string; stateReason: string } }>();
    expect(after.task.state).toBe('failed');
    expect(after.task.stateReason).toContain('steps.order');
    expect(server.effects.map((e) => e.name)).toEqual(['order']);
  }, 120_000);
});

/** A playbook whose one step writes a large input into a file: long enough to be killed mid-write. */
const BIG_WRITE = `name: big-write
inputs:
  blob: { type: string, required: true }
steps:
  - id: write
    tool: fs.write
    args: { path: data.txt, content: "\${inputs.blob}" }
acceptance:
  - { type: file_exists, path: data.txt, exists: true }
`;

const temps = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

describe('a killed fs.write leaves no temp file behind', () => {
  it('SIGKILL between the temp file and the rename: recovery removes the temp file and the write completes', async () => {
    const sandbox = new CliSandbox();
    cleanups.push(() => sandbox.cleanup());
    let killedMidWrite: { taskId: string; workspace: string; bytes: number } | undefined;
    for (let trial = 0; trial < 4 && !killedMidWrite; trial++) {
      const bytes = (24 << 20) * (trial + 1); // larger each time the kill came too late
      // The task is created by a runtime of its own on the same data folder; the CLI runs it.
      const creator = openTestRuntime({ home: sandbox.home });
      const task = await createPlaybookTask(creator.rt, BIG_WRITE, { inputs: { blob: 'x'.repeat(bytes) } });
      await creator.rt.close();

      const run = sandbox.spawn(['run', '--resume', task.id, '--json']);
      const watcher = watch(task.workspace, (_event, name) => {
        if (typeof name === 'string' && name.endsWith('.tmp')) run.child.kill('SIGKILL');
      });
      const result = await run.finished(120_000);
      watcher.close();
      if (result.signal === 'SIGKILL' && temps(task.workspace).length > 0)
        killedMidWrite = { taskId: task.id, workspace: task.workspace, bytes };
    }
    expect(killedMidWrite, 'a kill landed while the temp file existed').toBeDefined();
    const { taskId, workspace, bytes } = killedMidWrite!;

    const resumed = await sandbox.run(['run', '--resume', taskId, '--json'], { timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.json<{ task: { state: string } }>().task.state).toBe('succeeded');
    expect(statSync(path.join(workspace, 'data.txt')).size).toBe(bytes);
    expect(temps(workspace)).toEqual([]);
  }, 600_000);
});
