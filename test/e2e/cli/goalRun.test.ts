import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain, useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';

const KEY = 'sk-e2e-9b1f3c5d7e2a4c6b8d0f';
const CHECK = { type: 'file_contains' as const, name: 'greeting', path: 'hello.txt', text: 'hello world' };
const WRITE_THEN_DONE = [
  { toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } }], usage: { input: 900, output: 60 } },
  { text: 'Wrote hello.txt.', usage: { input: 1000, output: 10, cached: 800 } },
];

interface RunJson {
  task: { id: string; state: string; stateReason?: string; usage: { modelCalls: number; costUsd: number } };
  checks: { name: string; passed: boolean }[];
  proposedChecks?: unknown[];
}

let server: ModelServer;
let cli: CliSandbox;
const printed: string[] = [];
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());
beforeEach(async () => {
  cli = new CliSandbox();
  server.requests.length = 0;
  printed.length = 0;
  const set = await useLocalModel(cli, server.url, KEY);
  printed.push(set.stdout, set.stderr);
});
afterEach(async () => cli.cleanup());

async function agentDesk(args: string[]) {
  const result = await cli.run(args, { timeoutMs: 60_000 });
  printed.push(result.stdout, result.stderr);
  return result;
}

/** The key reached the model server and nothing the runtime wrote or printed. */
function expectKeyOnlyAtTheModel(): void {
  expect(server.requests.length).toBeGreaterThan(0);
  for (const r of server.requests) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
  for (const file of ['agent-desk.db', 'agent-desk.db-wal', 'config.json']) {
    const full = path.join(cli.home, file);
    if (existsSync(full)) expect(readFileSync(full).includes(Buffer.from(KEY)), file).toBe(false);
  }
  expect(printed.join('\n')).not.toContain(KEY);
}

describe('agent-desk run --goal (LLM planner against a local wire-protocol model server)', () => {
  it('without checks prints the proposal and leaves the task waiting; --resume --accept-checks runs it to success', async () => {
    server.script('chat', { toolCalls: [{ name: 'propose_checks', arguments: { checks: [CHECK] } }], usage: { input: 200, output: 30 } });
    const first = await agentDesk(['run', '--goal', 'Write hello world into hello.txt']);
    expect(first.code, explain(first)).toBe(3);
    expect(first.stdout).toContain('review acceptance checks');
    for (const [k, v] of Object.entries(CHECK)) expect(first.stdout).toContain(`"${k}":"${v}"`);
    const taskId = /^(tsk_\w+)/m.exec(first.stdout)![1]!;
    expect(first.stdout).toContain(`node bin/agent-desk.js run --resume ${taskId} --accept-checks`); // as the user ran it

    server.script('chat', ...WRITE_THEN_DONE);
    const second = await agentDesk(['run', '--resume', taskId, '--accept-checks', '--json']);
    expect(second.code, explain(second)).toBe(0);
    const report = second.json<RunJson>();
    expect(report.task).toMatchObject({ id: taskId, state: 'succeeded' });
    expect(report.checks).toEqual([expect.objectContaining({ name: 'greeting', passed: true })]);
    expect(report.task.usage.modelCalls).toBe(3);
    expect(report.task.usage.costUsd).toBeGreaterThan(0);
    expectKeyOnlyAtTheModel();
  });

  it('with --checks and --model runs to success in one go, and secrets list shows names only', async () => {
    const checksFile = path.join(cli.home, 'checks.json');
    writeFileSync(checksFile, JSON.stringify([CHECK]));
    server.script('chat', ...WRITE_THEN_DONE);
    const run = await agentDesk([
      'run',
      '--goal',
      'Write hello world into hello.txt',
      '--model',
      'local:gpt-test',
      '--checks',
      checksFile,
      '--json',
    ]);
    expect(run.code, explain(run)).toBe(0);
    expect(run.json<RunJson>().task.state).toBe('succeeded');
    expect(server.received('chat')[0]!.body.model).toBe('gpt-test');
    const listed = await agentDesk(['secrets', 'list', '--json']);
    expect(listed.json()).toEqual({ names: ['local-key'], secrets: [{ name: 'local-key', hosts: [] }] });
    expectKeyOnlyAtTheModel();
  });

  it('a goal with no model configured anywhere fails with the config key to set', async () => {
    writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({}));
    const run = await agentDesk(['run', '--goal', 'anything', '--checks', '/dev/null', '--json']);
    expect(run.code).toBe(2); // /dev/null holds no checks: a usage error before anything runs
    const checksFile = path.join(cli.home, 'checks.json');
    writeFileSync(checksFile, JSON.stringify({ checks: [CHECK] }));
    const failed = await agentDesk(['run', '--goal', 'anything', '--checks', checksFile, '--json']);
    expect(failed.code, explain(failed)).toBe(1);
    expect(failed.json<RunJson>().task.stateReason).toMatch(/no model configured .*models\.defaultModel/);
  });

  it('agent-desk serve completes a goal task with checks created over RPC; the gateway token reads settings and secret names, never a value', async () => {
    server.script('chat', ...WRITE_THEN_DONE);
    const serve = await startServe(cli);
    const client = await serve.connect();
    try {
      const settings = await client.call('settings.get', {});
      expect(settings.config.models.defaultModel).toBe('local:gpt-test');
      expect(await client.call('secrets.list', {})).toEqual({ names: ['local-key'], secrets: [{ name: 'local-key', hosts: [] }] });
      const created = await client.call('tasks.create', { goal: 'Write hello world into hello.txt', checks: [CHECK] });
      const done = await waitForTaskState(client, created.id, ['succeeded', 'failed'], 60_000);
      expect(done.state, done.stateReason).toBe('succeeded');
      const { steps } = await client.call('tasks.get', { taskId: created.id });
      expect(steps[0]!.costUsd).toBeCloseTo((900 + 2 * 60) / 1e6, 12);
    } finally {
      await client.close();
    }
    printed.push(serve.child.stdout, serve.child.stderr);
    expectKeyOnlyAtTheModel();
  });
});
