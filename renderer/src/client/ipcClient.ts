import type { EventFrame, MethodName, MethodParams, MethodResult } from '../../../electron/contract/index.js';
import { RuntimeError, type CallOptions, type RuntimeClient, type RuntimeEvent } from './runtimeClient.js';

/**
 * The shape of `window.agentDesk` as the Electron preload exposes it. Declared here by
 * structure because the renderer may import only the contract, not the preload.
 */
export interface IpcBridge {
  call(
    method: string,
    params: unknown,
    opts?: { idempotencyKey?: string },
  ): Promise<{ result: unknown } | { error: { code: string; message: string; details?: unknown } }>;
  onEvent(listener: (frame: EventFrame) => void): () => void;
}

/** A RuntimeClient over the Electron preload bridge; subscribes to every event. */
export async function connectIpc(bridge: IpcBridge): Promise<RuntimeClient> {
  const listeners = new Set<(event: RuntimeEvent) => void>();
  const off = bridge.onEvent((frame) => listeners.forEach((l) => l(frame as RuntimeEvent)));
  const client: RuntimeClient = {
    async call<M extends MethodName>(method: M, params: MethodParams<M>, opts: CallOptions = {}): Promise<MethodResult<M>> {
      const response = await bridge.call(method, params, opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {});
      if ('error' in response) throw new RuntimeError(response.error);
      return response.result as MethodResult<M>;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // The preload bridge lives as long as the window: it never drops.
    onClose: () => () => undefined,
    close: off,
  };
  await client.call('events.subscribe', {});
  return client;
}
