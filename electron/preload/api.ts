import type { EventFrame, MethodName } from '../contract/index.js';

/** IPC channel names shared by main and preload. */
export const IPC_CHANNELS = { rpc: 'agent-desk:rpc', event: 'agent-desk:event' } as const;

/** The name the bridge is exposed under: `window.agentDesk`. */
export const BRIDGE_NAME = 'agentDesk';

/** What the preload forwards to main for one call. */
export interface IpcRpcRequest {
  method: string;
  params: unknown;
  idempotencyKey?: string;
}

/** Main's answer: the result, or the runtime's `{code, message, details}` error. */
export type IpcRpcResponse = { result: unknown } | { error: { code: string; message: string; details?: unknown } };

/** The slice of ipcRenderer the bridge uses (never exposed itself). */
export interface IpcLike {
  invoke(channel: string, request: IpcRpcRequest): Promise<IpcRpcResponse>;
  on(channel: string, listener: (event: unknown, frame: EventFrame) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, frame: EventFrame) => void): unknown;
}

/** The typed API the window sees: RPC calls and pushed events, nothing else. */
export interface AgentDeskBridge {
  /** One RPC call; the renderer's IPC client turns the response into a typed result or error. */
  call(method: MethodName, params: unknown, opts?: { idempotencyKey?: string }): Promise<IpcRpcResponse>;
  onEvent(listener: (frame: EventFrame) => void): () => void;
}

/** The exact keys of the bridge; the unit test pins them. */
export const BRIDGE_KEYS = ['call', 'onEvent'] as const;

/**
 * Builds the bridge over ipcRenderer. Only plain data crosses: method names are strings, params
 * are cloned by IPC, and listeners never receive the IPC event object (it carries `sender`).
 */
export function createBridge(ipc: IpcLike): AgentDeskBridge {
  return Object.freeze({
    call(method: string, params: unknown, opts: { idempotencyKey?: string } = {}) {
      if (typeof method !== 'string' || method.length > 200) return Promise.reject(new TypeError('method must be a method name'));
      const request: IpcRpcRequest = {
        method,
        params,
        ...(typeof opts.idempotencyKey === 'string' ? { idempotencyKey: opts.idempotencyKey } : {}),
      };
      return ipc.invoke(IPC_CHANNELS.rpc, request);
    },
    onEvent(listener: (frame: EventFrame) => void) {
      const forward = (_event: unknown, frame: EventFrame) => listener(frame);
      ipc.on(IPC_CHANNELS.event, forward);
      return () => void ipc.removeListener(IPC_CHANNELS.event, forward);
    },
  });
}
