import type { MethodName, MethodParams, MethodResult } from '../../../electron/contract/index.js';
import { RuntimeError, type CallOptions, type RuntimeClient, type RuntimeEvent } from './runtimeClient.js';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Frame = {
  id?: string | number | null;
  result?: unknown;
  error?: { code: string; message: string; details?: unknown };
  event?: string;
  data?: unknown;
};

/** The subprotocol prefix the gateway reads the token from (browsers cannot set headers on a WebSocket). */
export const BEARER_PREFIX = 'bearer.';

/** The gateway's RPC URL for the page's own origin. */
export function rpcUrlFor(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc`;
}

/** Connects to the gateway and subscribes to every event; rejects `unauthorized` when the handshake is refused. */
export function connectWs(url: string, token: string): Promise<RuntimeClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [`${BEARER_PREFIX}${token}`]);
    const pending = new Map<number, Pending>();
    const listeners = new Set<(event: RuntimeEvent) => void>();
    const closeListeners = new Set<() => void>();
    let nextId = 1;
    let opened = false;
    let closedByUs = false;

    const client: RuntimeClient = {
      call<M extends MethodName>(method: M, params: MethodParams<M>, opts: CallOptions = {}): Promise<MethodResult<M>> {
        if (ws.readyState !== WebSocket.OPEN) return Promise.reject(new RuntimeError({ code: 'unavailable', message: 'not connected' }));
        const id = nextId++;
        const frame = { id, method, params, ...(opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {}) };
        return new Promise<MethodResult<M>>((res, rej) => {
          pending.set(id, { resolve: res as (v: unknown) => void, reject: rej });
          ws.send(JSON.stringify(frame));
        });
      },
      onEvent(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onClose(listener) {
        closeListeners.add(listener);
        return () => closeListeners.delete(listener);
      },
      close: () => {
        closedByUs = true;
        ws.close(1000);
      },
    };

    ws.onmessage = (message) => {
      let frame: Frame;
      try {
        frame = JSON.parse(String(message.data)) as Frame;
      } catch {
        return; // the gateway only sends JSON; ignore anything else
      }
      if (typeof frame.event === 'string') {
        for (const listener of listeners) listener({ event: frame.event, data: frame.data } as RuntimeEvent);
        return;
      }
      const call = typeof frame.id === 'number' ? pending.get(frame.id) : undefined;
      if (!call || typeof frame.id !== 'number') return;
      pending.delete(frame.id);
      if (frame.error) call.reject(new RuntimeError(frame.error));
      else call.resolve(frame.result);
    };
    ws.onopen = () => {
      opened = true;
      client.call('events.subscribe', {}).then(() => resolve(client), reject);
    };
    ws.onclose = (event) => {
      const reason = opened ? `connection closed (${event.code})` : 'the gateway refused the connection (wrong or missing token?)';
      const error = new RuntimeError({ code: opened ? 'unavailable' : 'unauthorized', message: reason });
      for (const call of pending.values()) call.reject(error);
      pending.clear();
      if (!opened) reject(error);
      else if (!closedByUs) for (const listener of closeListeners) listener();
    };
  });
}
