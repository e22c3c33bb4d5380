import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Task } from '../../../../electron/contract/index.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { createPlaybookTask, openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';

const owner: CallContext = { scopes: [...ALL_SCOPES], clientId: 'ws:owner' };
const DELETE = `
name: cleanup
steps:
  - { id: write, tool: fs.write, args: { path: old.log, content: "old" } }
  - { id: delete, tool: fs.delete, args: { path: old.log } }
`;

let h: TestRuntime;
afterEach(async () => h.cleanup());

function open(): void {
  const home = tempDir();
  h = openTestRuntime({ home, secrets: new FileSecretStore(home) });
}

async function call<T>(method: string, params: unknown): Promise<T> {
  const response = (await h.rt.dispatcher.dispatch({ id: 1, method, params }, owner)) as {
    result?: T;
    error?: { code: string; message: string };
  };
  if (response.error) throw Object.assign(new Error(response.error.message), { code: response.error.code });
  return response.result as T;
}

/** Runs the delete playbook as a new task until it ends or waits. */
const runTask = async (): Promise<Task> => h.rt.engine.run((await createPlaybookTask(h.rt, DELETE)).id, { detachOnApproval: true });

describe('settings saved over RPC apply to the next task without a restart', () => {
  it('a policy rule that allows deletes: the next task deletes without asking, and the answer says when it applies', async () => {
    open();
    expect((await runTask()).state).toBe('waiting_approval'); // the default: a delete asks

    const saved = await call<{ appliesTo: string; restartNeeded: string[] }>('settings.set', {
      config: { policy: { rules: { allow: ['fs.delete'] } } },
    });
    expect(saved).toMatchObject({ appliesTo: 'next-task', restartNeeded: [] });
    expect((await runTask()).state).toBe('succeeded');

    await call('settings.set', { config: { policy: { rules: { deny: ['fs.delete'] } } } });
    const denied = await runTask();
    expect(denied.state).toBe('failed');
  });

  it('a policy the gate cannot compile is refused with its field, and neither the file nor the running policy change', async () => {
    open();
    await call('settings.set', { config: { policy: { rules: { allow: ['fs.delete'] } } } });
    await expect(call('settings.set', { config: { policy: { rules: { allow: ['fs.delete(('] } } } })).rejects.toMatchObject({
      code: 'invalid_params',
    });
    expect(JSON.parse(readFileSync(path.join(h.home, 'config.json'), 'utf8')).policy.rules.allow).toEqual(['fs.delete']);
    expect((await runTask()).state).toBe('succeeded');
  });

  it('sections read only at start-up are named as needing a restart', async () => {
    open();
    const saved = await call<{ restartNeeded: string[] }>('settings.set', {
      config: { scheduler: { concurrency: 2, missedGraceMs: 1000 }, policy: { allowWrites: ['http://127.0.0.1:*'] } },
    });
    expect(saved.restartNeeded).toEqual(['scheduler', 'policy.allowWrites']);
    expect(existsSync(path.join(h.home, 'config.json'))).toBe(true);
  });
});
