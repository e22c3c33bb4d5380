import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { ALL_SCOPES, type EventFrame } from '../contract/index.js';
import type { Dispatcher, EventBus } from '../runtime/gateway/index.js';
import { IPC_CHANNELS, type IpcRpcRequest, type IpcRpcResponse } from '../preload/api.js';

/** True when an IPC message comes from our window's own top frame showing our own page. */
export function isTrustedSender(senderUrl: string | undefined, rendererUrl: string): boolean {
  if (!senderUrl) return false;
  try {
    const sender = new URL(senderUrl);
    const ours = new URL(rendererUrl);
    return sender.protocol === ours.protocol && sender.host === ours.host && sender.pathname === ours.pathname;
  } catch {
    return false;
  }
}

/** What the bridge needs from main. */
export interface IpcBridgeOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  contents: WebContents;
  rendererUrl: string;
  dispatcher: Dispatcher;
  bus: EventBus;
}

/**
 * Serves the window's RPC calls through the same method table as the WebSocket gateway.
 * Calls from any other sender (another window, a subframe, a navigated page) are refused.
 */
export function installIpcBridge(options: IpcBridgeOptions): () => void {
  const { contents, rendererUrl, dispatcher, bus } = options;
  const unsubscribes: (() => void)[] = [];
  const push = (frame: EventFrame) => {
    if (!contents.isDestroyed()) contents.send(IPC_CHANNELS.event, frame);
  };
  const ctx = {
    // The window is the local user's own app: it may store and delete provider keys. No method
    // ever returns a secret value, so the scope lets the page write keys, never read them.
    scopes: [...ALL_SCOPES],
    clientId: 'electron-window',
    subscribe: (filter: Parameters<EventBus['on']>[0]) => void unsubscribes.push(bus.on(filter, push, { elsewhere: true })),
  };
  let nextId = 0;
  options.ipcMain.handle(IPC_CHANNELS.rpc, async (event: IpcMainInvokeEvent, request: IpcRpcRequest): Promise<IpcRpcResponse> => {
    if (event.sender.id !== contents.id || event.senderFrame?.parent || !isTrustedSender(event.senderFrame?.url, rendererUrl))
      return { error: { code: 'forbidden', message: 'IPC from an untrusted sender' } };
    const response = await dispatcher.dispatch({ ...(request ?? {}), id: ++nextId }, ctx);
    return 'error' in response ? { error: response.error } : { result: response.result };
  });
  return () => {
    options.ipcMain.removeHandler(IPC_CHANNELS.rpc);
    for (const off of unsubscribes) off();
  };
}
