import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../../electron/contract/index.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';
import { databaseFilesHolding } from '../../../support/secretSearch.js';

const SECRET = 'sk-late-6h8j0l2n4p6r8t0v';

let serve: TestRuntime;
let cli: TestRuntime;
afterEach(async () => {
  await cli?.rt.close();
  await serve?.cleanup();
});

describe('a secret stored by another process', () => {
  it('is redacted by a runtime that was already running when it was stored', async () => {
    const home = tempDir();
    // Two runtimes on one data folder, as `serve` and a later `agent-desk secrets set` are.
    serve = openTestRuntime({ home, secrets: new FileSecretStore(home) });
    const cliSecrets = new FileSecretStore(home);
    cli = openTestRuntime({ home, secrets: cliSecrets });
    const set = await cli.rt.dispatcher.dispatch(
      { id: 1, method: 'secrets.set', params: { name: 'late-key', value: SECRET } },
      { scopes: [...ALL_SCOPES], clientId: 'cli' },
    );
    expect(set).toMatchObject({ result: { name: 'late-key' } });
    await new Promise((r) => setTimeout(r, 150)); // the stated bound: the store is checked every 100 ms

    const source = 'name: r\nsteps:\n  - { tool: fs.read, args: { path: vault.txt } }\n';
    const task = await serve.rt.engine.create({ title: 'r', plan: { kind: 'playbook', source, baseDir: home }, inputs: {} });
    writeFileSync(path.join(task.workspace, 'vault.txt'), SECRET);
    expect((await serve.rt.engine.run(task.id)).state).toBe('succeeded');
    expect(JSON.stringify((await serve.rt.engine.steps(task.id))[0]!.output)).toContain('[secret:late-key]');
    expect(databaseFilesHolding(home, SECRET)).toEqual([]);
  });
});
