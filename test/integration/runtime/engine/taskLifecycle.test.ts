import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlaybookTask, type TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const writeAndCheck = (sha: string) => `
name: write-report
steps:
  - id: write
    tool: fs.write
    args: { path: out/report.txt, content: "hello\\n" }
  - id: read
    tool: fs.read
    args: { path: "\${steps.write.output.path}" }
    expect: [{ path: $.content, equals: "hello\\n" }]
acceptance:
  - { type: file_sha256, path: out/report.txt, sha256: "${sha}" }
  - { type: file_exists, path: out/report.txt }
`;
const HELLO_SHA = '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03';

describe.each(STORE_KINDS)('task life (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('a playbook succeeds only after its acceptance checks pass, with every transition traced in order', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(h.rt, writeAndCheck(HELLO_SHA));
    const announced: string[] = [];
    h.rt.bus.on({ events: ['task.updated'] }, (f) => announced.push((f.data as { state: string }).state));
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('succeeded');
    // The start commits planning and running together; each is still announced, in order.
    expect(announced.filter((s, i) => s !== announced[i - 1])).toEqual(['planning', 'running', 'succeeded']);
    expect(done.checks.map((c) => [c.type, c.passed])).toEqual([
      ['file_sha256', true],
      ['file_exists', true],
    ]);
    expect(readFileSync(path.join(done.workspace, 'out/report.txt'), 'utf8')).toBe('hello\n');

    const { events } = await h.rt.trace.page(task.id, 0, 1000);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const transitions = events.filter((e) => e.type === 'task.transition').map((e) => e.data.to);
    expect(transitions).toEqual(['planning', 'running', 'succeeded']);
    const stepEvents = events.filter((e) => e.type.startsWith('step.')).map((e) => e.type);
    // The write is recorded before it runs; the read-only call is one event telling start and result.
    expect(stepEvents).toEqual(['step.started', 'step.completed', 'step.completed']);
    const started = events.find((e) => e.type === 'step.started')!;
    expect(started.data).toMatchObject({ tool: 'fs.write', route: { reason: 'named in plan', tier: 'api' }, policy: { effect: 'allow' } });
    const read = events.filter((e) => e.type === 'step.completed')[1]!;
    expect(read.data).toMatchObject({
      tool: 'fs.read',
      args: { path: 'out/report.txt' },
      policy: { effect: 'allow' },
      outputDigest: expect.any(String),
    });
    expect(events.filter((e) => e.type === 'check.result')).toHaveLength(2);
  });

  it('a failing acceptance check fails the task and names the check with what it saw', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(h.rt, writeAndCheck('0'.repeat(64)));
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('acceptance check failed: file_sha256 out/report.txt');
    expect(done.stateReason).toContain(HELLO_SHA);
  });

  it('a step whose expectation fails is retried, then fails the task with the expectation', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(
      h.rt,
      `
name: expect-fails
steps:
  - tool: echo
    args: { value: 1 }
    retries: 2
    expect: [{ path: $.value, equals: 2 }]
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(/step 1 \(echo\) failed: expectation failed: \$\.value: expected 2, got 1/);
    const steps = await h.rt.engine.steps(task.id);
    expect(steps.map((s) => [s.attempt, s.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
    ]);
    expect(new Set(steps.map((s) => s.idempotencyKey)).size).toBe(1);
    const states = (await h.rt.trace.page(task.id, 0, 100)).events.filter((e) => e.type === 'task.transition').map((e) => e.data.to);
    expect(states.filter((s) => s === 'retrying')).toHaveLength(2);
  });

  it('an invalid playbook is refused at creation with one located error per problem', async () => {
    h = await openStoreTestRuntime(kind);
    await expect(
      createPlaybookTask(
        h.rt,
        `
name: broken
steps:
  - tool: fs.write
    args: { content: x }
  - tool: fs.wrte
    args: {}
`,
      ),
    ).rejects.toThrowError(/steps\[0\]\.args\.path: required[\s\S]*steps\[1\]\.tool: unknown tool "fs\.wrte"/);
    expect(await h.rt.store.tasks.list({ limit: 10 })).toHaveLength(0);
  });

  it('a policy deny rule fails the step with the rule recorded', async () => {
    h = await openStoreTestRuntime(kind, { config: { policy: { rules: { deny: ['fs.write(secrets/**)'] } } } });
    const task = await createPlaybookTask(
      h.rt,
      `
name: denied
steps:
  - tool: fs.write
    args: { path: secrets/key.txt, content: x }
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('denied by policy');
    const [step] = await h.rt.engine.steps(task.id);
    expect(step).toMatchObject({ status: 'denied', policy: { effect: 'deny', source: 'rule', rule: 'fs.write(secrets/**)' } });
  });
});
