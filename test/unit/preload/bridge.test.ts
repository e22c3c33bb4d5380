import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type EventFrame } from '../../../electron/contract/index.js';
import { BRIDGE_KEYS, createBridge, IPC_CHANNELS, type IpcLike, type IpcRpcRequest } from '../../../electron/preload/api.js';
import { REPO_ROOT } from '../../support/cliSandbox.js';
import { openTestRuntime, type TestRuntime } from '../../support/runtime.js';

let harness: TestRuntime | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

/** An ipcRenderer stand-in wired to a real runtime's dispatcher, as main's IPC bridge does. */
function ipcOverRuntime(rt: TestRuntime['rt'], seen: IpcRpcRequest[]): IpcLike & EventEmitter {
  const emitter = new EventEmitter();
  let id = 0;
  return Object.assign(emitter, {
    async invoke(channel: string, request: IpcRpcRequest) {
      expect(channel).toBe(IPC_CHANNELS.rpc);
      seen.push(request);
      const response = await rt.dispatcher.dispatch({ ...request, id: ++id }, { scopes: ALL_SCOPES, clientId: 'preload-test' });
      return 'error' in response ? { error: response.error } : { result: response.result };
    },
  }) as IpcLike & EventEmitter;
}

describe('preload bridge', () => {
  it('exposes exactly call and onEvent, frozen, and never the IPC object or event', async () => {
    harness = openTestRuntime();
    const seen: IpcRpcRequest[] = [];
    const ipc = ipcOverRuntime(harness.rt, seen);
    const bridge = createBridge(ipc);
    expect(Object.keys(bridge).sort()).toEqual([...BRIDGE_KEYS].sort());
    expect(Object.isFrozen(bridge)).toBe(true);

    const info = await bridge.call('system.info', {});
    expect(info).toMatchObject({ result: { name: 'agent-desk' } });
    expect(await bridge.call('no.such.method' as 'system.info', {})).toMatchObject({ error: { code: 'method_not_found' } });
    await expect(bridge.call(42 as unknown as 'system.info', {})).rejects.toThrow('method must be a method name');
    expect(seen).toEqual([
      { method: 'system.info', params: {} },
      { method: 'no.such.method', params: {} },
    ]);

    const frames: unknown[][] = [];
    const off = bridge.onEvent((...args) => frames.push(args));
    const frame = { event: 'task.updated', data: { id: 't' } } as unknown as EventFrame;
    ipc.emit(IPC_CHANNELS.event, { sender: 'the IPC event must not leak' }, frame);
    off();
    ipc.emit(IPC_CHANNELS.event, {}, frame);
    expect(frames).toEqual([[frame]]);
  });

  it('the preload entry exposes only the bridge, never ipcRenderer itself', () => {
    const source = readFileSync(path.join(REPO_ROOT, 'electron/preload/index.ts'), 'utf8');
    const exposed = [...source.matchAll(/exposeInMainWorld\(([^,]+),\s*([^)]+\))/g)].map((m) => [m[1], m[2]]);
    expect(exposed).toEqual([['BRIDGE_NAME', 'createBridge(ipcRenderer as unknown as IpcLike)']]);
  });
});
