import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Scope, type Task, type TraceEvent } from '../../../../electron/contract/index.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { ModelServer } from '../../../support/modelServer.js';
import { openTestRuntime, tempDir, waitForState, type TestRuntime } from '../../../support/runtime.js';

const KEY = 'sk-local-5f2c9a7e1d3b4c6a8e0f';
const everything: CallContext = { scopes: [...ALL_SCOPES], clientId: 'ws:owner' };
const as = (scopes: Scope[]): CallContext => ({ scopes, clientId: 'ws:other' });
const admin = as(['operator.read', 'operator.write', 'operator.admin']);

let server: ModelServer;
let h: TestRuntime;
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());
beforeEach(() => {
  server.requests.length = 0;
  const home = tempDir();
  const secrets = new FileSecretStore(home);
  h = openTestRuntime({ home, secrets });
});
afterEach(async () => h.cleanup());

async function call<T = unknown>(method: string, params: unknown, ctx = everything): Promise<T> {
  const response = (await h.rt.dispatcher.dispatch({ id: 1, method, params }, ctx)) as {
    result?: T;
    error?: { code: string; message: string };
  };
  if (response.error) throw Object.assign(new Error(response.error.message), { code: response.error.code });
  return response.result as T;
}

/** Secret and settings for a local provider served by the model server. */
async function configureLocalModel(): Promise<void> {
  await call('secrets.set', { name: 'local-key', value: KEY });
  await call(
    'settings.set',
    {
      config: {
        models: {
          providers: { local: { kind: 'openai-chat', baseUrl: server.url, apiKeySecret: 'local-key' } },
          defaultModel: 'local:gpt-test',
          prices: { 'gpt-test': { inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: 0.1 } },
        },
      },
    },
    admin,
  );
}

const traceOf = async (taskId: string): Promise<TraceEvent[]> =>
  (await call<{ events: TraceEvent[] }>('traces.get', { taskId, limit: 500 })).events;

describe('settings.* and secrets.* over RPC', () => {
  it('write config.json atomically after validating it, and keep secret values write-only behind their own scope', async () => {
    const set = await call<{ config: { models: { defaultModel?: string } } }>(
      'settings.set',
      { config: { models: { defaultModel: 'ollama:llama3.2' } } },
      admin,
    );
    expect(set.config.models.defaultModel).toBe('ollama:llama3.2');
    expect(JSON.parse(readFileSync(path.join(h.home, 'config.json'), 'utf8'))).toEqual({ models: { defaultModel: 'ollama:llama3.2' } });
    expect((await call<{ config: { models: { defaultModel?: string } } }>('settings.get', {}, admin)).config.models.defaultModel).toBe(
      'ollama:llama3.2',
    );
    await expect(call('settings.set', { config: { models: { defaultModel: 'no-colon' } } }, admin)).rejects.toMatchObject({
      code: 'invalid_params',
    });
    await expect(call('settings.set', { config: { nonsense: 1 } }, admin)).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(call('settings.get', {}, as(['operator.read', 'operator.write']))).rejects.toMatchObject({ code: 'forbidden' });

    await expect(call('secrets.set', { name: 'k', value: KEY }, admin)).rejects.toMatchObject({ code: 'forbidden' });
    const results = [
      await call('secrets.set', { name: 'local-key', value: KEY }),
      await call('secrets.list', {}),
      await call('secrets.delete', { name: 'nope' }),
    ];
    expect(results).toEqual([
      { name: 'local-key' },
      { names: ['local-key'], secrets: [{ name: 'local-key', hosts: [] }] },
      { deleted: false },
    ]);
    expect(JSON.stringify(results)).not.toContain(KEY);
    expect(h.rt.redactor.text(`key=${KEY}`)).toBe('key=[secret:local-key]');
  });
});

describe('goal tasks wired to configured models', () => {
  it('propose checks, wait for review, run after tasks.reviewChecks, and trace every model call with its cost; the key reaches the model and nothing else', async () => {
    await configureLocalModel();
    const proposal = [{ type: 'file_contains', name: 'greeting', path: 'hello.txt', text: 'hello world' }];
    server.script(
      'chat',
      { toolCalls: [{ name: 'propose_checks', arguments: { checks: proposal } }], usage: { input: 300, output: 40 } },
      {
        toolCalls: [
          { name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } },
          // A model echoing the key into a tool call: stored redacted like any secret.
          { name: 'fs_write', arguments: { path: 'echo.txt', content: `the key is ${KEY}` } },
        ],
        usage: { input: 1000, output: 100 },
      },
      { text: 'Done.', usage: { input: 1200, output: 20, cached: 1000 } },
    );
    const created = await call<Task>('tasks.create', { goal: 'Write hello world into hello.txt' });
    const waiting = await waitForState(h.rt, created.id, ['waiting_user', 'failed']);
    expect(waiting).toMatchObject({ state: 'waiting_user', stateReason: 'review acceptance checks' });
    const proposed = (await traceOf(created.id)).find((e) => e.type === 'intent.proposed')!;
    expect(proposed.data.checks).toEqual(proposal);

    await call('tasks.reviewChecks', { taskId: created.id, checks: proposed.data.checks });
    const done = await waitForState(h.rt, created.id, ['succeeded', 'failed']);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(done.plan).toMatchObject({ kind: 'goal', acceptance: proposal });
    expect(done.checks.map((c) => [c.name, c.passed])).toEqual([['greeting', true]]);
    expect(done.usage).toMatchObject({ modelCalls: 3, tokensIn: 2500, tokensOut: 160 });

    const calls = (await traceOf(created.id)).filter((e) => e.type === 'model.call').map((e) => e.data);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toMatchObject({ provider: 'openai-chat', model: 'gpt-test', tokensIn: 1200, tokensOut: 20, tokensCached: 1000 });
    expect(calls[2]!.costUsd).toBeCloseTo((200 + 1000 * 0.1 + 2 * 20) / 1e6, 12);
    expect(typeof calls[0]!.durationMs).toBe('number');
    const { steps } = await call<{ steps: { index: number; costUsd: number; tokens: number; args: unknown }[] }>('tasks.get', {
      taskId: created.id,
    });
    expect(steps.find((s) => s.index === 0)).toMatchObject({ tokens: 1100, costUsd: (1000 + 2 * 100) / 1e6 });
    expect(JSON.stringify(steps)).toContain('[secret:local-key]');

    expect(server.received('chat').map((r) => r.headers.authorization)).toEqual(Array(3).fill(`Bearer ${KEY}`));
    expect(JSON.stringify(await traceOf(created.id))).not.toContain(KEY);
    for (const file of ['agent-desk.db', 'agent-desk.db-wal', 'agent-desk.db-shm', 'config.json']) {
      const full = path.join(h.home, file);
      if (existsSync(full)) expect(readFileSync(full).includes(Buffer.from(KEY)), file).toBe(false);
    }
  });

  it('fail at planning with the config key to set when no model is configured', async () => {
    const created = await call<Task>('tasks.create', { goal: 'anything', checks: [{ type: 'file_exists', path: 'x' }] });
    const failed = await waitForState(h.rt, created.id, ['failed', 'succeeded']);
    expect(failed.stateReason).toMatch(/no model configured .*models\.defaultModel/);
    expect(server.requests).toHaveLength(0);
  });

  it('answer a bad proposal once, then fail clearly on a second one', async () => {
    await configureLocalModel();
    server.script(
      'chat',
      { toolCalls: [{ name: 'propose_checks', arguments: { checks: [{ type: 'command_exit', command: ['true'] }] } }] },
      { toolCalls: [{ name: 'propose_checks', arguments: '{"checks": [' }] },
    );
    const created = await call<Task>('tasks.create', { goal: 'anything' });
    const failed = await waitForState(h.rt, created.id, ['failed', 'waiting_user']);
    expect(failed.state).toBe('failed');
    expect(failed.stateReason).toMatch(/proposed no valid acceptance checks twice \(last: the arguments are not JSON/);
    const second = server.received('chat')[1]!.body.messages as { role: string; content?: string }[];
    expect(second.find((m) => m.role === 'tool')!.content).toMatch(/only these check types may be proposed/);
    expect(failed.usage.modelCalls).toBe(2);
  });

  it('refuse a review of a task that is not a goal or has no checks', async () => {
    await configureLocalModel();
    const created = await call<Task>('tasks.create', { goal: 'anything', start: false });
    await expect(call('tasks.reviewChecks', { taskId: created.id, checks: [] })).rejects.toMatchObject({ code: 'invalid_params' });
    const reviewed = await call<Task>('tasks.reviewChecks', {
      taskId: created.id,
      checks: [{ type: 'file_exists', path: 'x' }],
      start: false,
    });
    expect(reviewed).toMatchObject({ state: 'queued', plan: { acceptance: [{ type: 'file_exists', path: 'x', exists: true }] } });
  });
});
