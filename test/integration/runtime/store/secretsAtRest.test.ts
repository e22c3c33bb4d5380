import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../../electron/contract/index.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { RecordingServer } from '../../../support/recordingServer.js';
import { openTestRuntime, tempDir, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { databaseFilesHolding } from '../../../support/secretSearch.js';

const SECRET = 'sk-live-9d8c7b6a5f4e3d2c1b0a';

let h: TestRuntime;
let api: RecordingServer;
afterEach(async () => {
  await api?.close();
  await h?.cleanup();
});

async function call(method: string, params: unknown): Promise<unknown> {
  const response = (await h.rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: [...ALL_SCOPES], clientId: 'test' })) as {
    result?: unknown;
    error?: { message: string };
  };
  if (response.error) throw new Error(response.error.message);
  return response.result;
}

describe('the store boundary', () => {
  it('keeps a known secret out of every row, the database file and its WAL, whichever table it would reach', async () => {
    api = new RecordingServer({ token: SECRET, note: `your key is ${SECRET}` });
    const url = await api.start();
    const home = tempDir();
    const secrets = new FileSecretStore(home);
    h = openTestRuntime({
      home,
      secrets,
      config: { policy: { networkAllow: ['127.0.0.1:*'] } },
    });
    await call('secrets.set', { name: 'api-key', value: SECRET });

    // A file, an API answer and an approval preview all carry the secret; the task's state reason
    // ("approval needed: POST …?key=<value>") is built from that preview.
    const source = `
name: handles-a-key
steps:
  - { id: read, tool: fs.read, args: { path: vault.txt } }
  - { id: api, tool: http.request, args: { url: "${url}/me" } }
  - id: send
    tool: http.request
    args:
      method: POST
      url: "${url}/report?key=\${steps.read.output.content}"
      body: "\${steps.api.output.json.note}"
`;
    const task = await h.rt.engine.create({ title: 'k', plan: { kind: 'playbook', source, baseDir: home }, inputs: {} });
    writeFileSync(path.join(task.workspace, 'vault.txt'), SECRET);
    const running = h.rt.engine.run(task.id);
    const waiting = await waitForState(h.rt, task.id, ['waiting_approval']);
    expect(waiting.stateReason).toBe(`approval needed: POST ${url}/report?key=[secret:api-key]`);
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    const done = await running;
    expect(done.state).toBe('succeeded');
    expect(api.requests.at(-1)!.url).toBe(`/report?key=${SECRET}`); // the effect itself got the value

    await call('memory.add', { scope: { kind: 'workspace', id: task.workspace }, text: `deploy key ${SECRET}`, tags: [SECRET] });
    await h.rt.engine.create({ title: `rotate ${SECRET}`, plan: { kind: 'playbook', source, baseDir: home }, inputs: {} });

    expect(databaseFilesHolding(home, SECRET)).toEqual([]);
    const rows = JSON.stringify([await h.rt.engine.steps(task.id), await h.rt.trace.page(task.id, 0, 1000), await h.rt.approvals.list({})]);
    expect(rows).toContain('[secret:api-key]');
    expect(rows).not.toContain(SECRET);
  });
});
