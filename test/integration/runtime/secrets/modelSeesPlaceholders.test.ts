import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../../electron/contract/index.js';
import { BrowserHost } from '../../../../electron/capabilities/browser/browserHost.js';
import { browserTools } from '../../../../electron/capabilities/browser/browserTools.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { ModelServer, type ScriptedReply } from '../../../support/modelServer.js';
import { RecordingServer } from '../../../support/recordingServer.js';
import { missing } from '../../../support/requirements.js';
import { openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';
import { databaseFilesHolding } from '../../../support/secretSearch.js';

const TOKEN = 'ghp_7Hq2Lx9Vb4Nc8Mz1Kd5Rt3Wy6';
const MODEL_KEY = 'sk-local-0a1b2c3d4e5f6a7b8c9d';
const noChromium = missing('chromium');

let models: ModelServer;
let api: RecordingServer;
let browser: BrowserHost | undefined;
let h: TestRuntime;
beforeAll(async () => {
  models = await new ModelServer().start();
  api = new RecordingServer({ login: 'ada', token: TOKEN }, { '/account.html': `<html><body><p>Your token: ${TOKEN}</p></body></html>` });
  await api.start();
  if (!noChromium) browser = new BrowserHost({ networkAllow: ['127.0.0.1:*'] });
});
afterAll(async () => {
  await browser?.close();
  await api.close();
  await models.close();
});
afterEach(async () => h?.cleanup());

async function call(method: string, params: unknown): Promise<unknown> {
  const response = (await h.rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: [...ALL_SCOPES], clientId: 'test' })) as {
    result?: unknown;
    error?: { message: string };
  };
  if (response.error) throw new Error(response.error.message);
  return response.result;
}

describe('what the model is shown', () => {
  it(`a known secret read from a file, an API answer${noChromium ? '' : ' or a page'} reaches the model as [secret:name]`, async () => {
    const home = tempDir();
    const secrets = new FileSecretStore(home);
    h = openTestRuntime({
      home,
      secrets,
      config: { policy: { networkAllow: ['127.0.0.1:*'] } },
      tools: browser ? browserTools(browser) : [],
    });
    await call('secrets.set', { name: 'local-key', value: MODEL_KEY });
    await call('secrets.set', { name: 'github-token', value: TOKEN });
    await call('settings.set', {
      config: {
        models: {
          providers: { local: { kind: 'openai-chat', baseUrl: models.url, apiKeySecret: 'local-key' } },
          defaultModel: 'local:gpt-test',
        },
      },
    });
    const base = `http://127.0.0.1:${api.port}`;
    const pageTurns: ScriptedReply[] = browser
      ? [
          { toolCalls: [{ name: 'browser_navigate', arguments: { url: `${base}/account.html` } }] },
          { toolCalls: [{ name: 'browser_extract_text', arguments: {} }] },
        ]
      : [];
    models.script(
      'chat',
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'vault.txt' } }] },
      { toolCalls: [{ name: 'http_request', arguments: { url: `${base}/me` } }] },
      ...pageTurns,
      { text: 'Your token is on file.' },
    );
    const checks = [{ type: 'file_exists' as const, path: 'vault.txt', exists: true }];
    const task = await h.rt.engine.create({
      title: 'token',
      plan: { kind: 'goal', goal: 'Find my GitHub token', acceptance: checks },
      inputs: {},
    });
    writeFileSync(path.join(task.workspace, 'vault.txt'), `github: ${TOKEN}\n`);
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');

    const sent = models.received('chat');
    expect(sent).toHaveLength(3 + pageTurns.length);
    const bodies = JSON.stringify(sent.map((r) => r.body));
    expect(bodies).not.toContain(TOKEN);
    // Each source's result reached the model, with the placeholder where the value was.
    const toolResults = sent.at(-1)!.body.messages as { role: string; content: string }[];
    const results = toolResults.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toHaveLength(2 + pageTurns.length);
    expect(results[0]).toContain('github: [secret:github-token]');
    expect(results[1]).toContain('"token":"[secret:github-token]"');
    if (browser) expect(results[3]).toContain('Your token: [secret:github-token]');
    expect(databaseFilesHolding(home, TOKEN)).toEqual([]);
  });
});
