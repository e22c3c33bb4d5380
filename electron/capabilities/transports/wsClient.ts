import WebSocket from 'ws';
import {
  EventFrameSchema,
  RpcResponseSchema,
  type EventFrame,
  type MethodName,
  type MethodParams,
  type MethodResult,
} from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';

/** Per-call options. */
export interface CallOptions {
  /** For side-effecting methods: a repeat with the same key returns the first result. */
  idempotencyKey?: string;
  /** Defaults to the client's `callTimeoutMs`. */
  timeoutMs?: number;
}

/** Options of `connectGateway`. */
export interface ConnectOptions {
  /** How long the WebSocket handshake may take; default 10 s. */
  connectTimeoutMs?: number;
  /** Default per-call timeout; default 30 s. */
  callTimeoutMs?: number;
}

/** A typed RPC client of the gateway, for the CLI and tests. */
export interface GatewayClient {
  /** Calls a method; rejects with an AgentDeskError carrying the server's code, message and details. */
  call<M extends MethodName>(method: M, params: MethodParams<M>, opts?: CallOptions): Promise<MethodResult<M>>;
  /** Receives pushed events (after `events.subscribe`); returns the unsubscribe function. */
  onEvent(listener: (frame: EventFrame) => void): () => void;
  /** Closes the connection; pending calls reject with `unavailable`. */
  close(): Promise<void>;
}

type Pending = { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/** Connects to `ws://…/rpc` with a bearer token; rejects `unauthorized` on a 401. */
export async function connectGateway(url: string, token: string, options: ConnectOptions = {}): Promise<GatewayClient> {
  const ws = new WebSocket(url, {
    headers: { authorization: `Bearer ${token}` },
    handshakeTimeout: options.connectTimeoutMs ?? 10_000,
  });
  await opened(ws, url);

  const pending = new Map<string | number, Pending>();
  const listeners = new Set<(frame: EventFrame) => void>();
  let nextId = 1;
  let closedReason: string | undefined;

  ws.on('message', (data) => {
    const message = parseMessage(data.toString());
    if (message && 'event' in message) return notify(listeners, message);
    if (!message || message.id === null) return;
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    clearTimeout(call.timer);
    if ('error' in message) call.reject(new AgentDeskError(message.error.code, message.error.message, message.error.details));
    else call.resolve(message.result);
  });
  ws.on('close', (code, reason) => {
    closedReason = `connection closed (code ${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`;
    for (const call of pending.values()) {
      clearTimeout(call.timer);
      call.reject(new AgentDeskError('unavailable', `${closedReason} before ${call.method} answered`));
    }
    pending.clear();
  });

  return {
    call(method, params, opts = {}) {
      if (ws.readyState !== WebSocket.OPEN) {
        return Promise.reject(new AgentDeskError('unavailable', `${closedReason ?? 'connection is not open'}; reconnect`));
      }
      const id = nextId++;
      const timeoutMs = opts.timeoutMs ?? options.callTimeoutMs ?? 30_000;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new AgentDeskError('unavailable', `${method} got no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject, timer });
        ws.send(JSON.stringify({ id, method, params, idempotencyKey: opts.idempotencyKey }));
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close() {
      if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000, 'client closing');
      });
    },
  };
}

function opened(ws: WebSocket, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // A permanent listener: ws emits 'error' again when an aborted handshake is torn down.
    ws.on('error', (error) => reject(new AgentDeskError('unavailable', `cannot connect to ${url}: ${error.message}`)));
    ws.once('unexpected-response', (_req, res) => {
      const code = res.statusCode === 401 ? 'unauthorized' : 'unavailable';
      const hint = res.statusCode === 401 ? '; check the gateway token' : '';
      reject(new AgentDeskError(code, `gateway refused the connection to ${url}: HTTP ${res.statusCode}${hint}`));
      ws.terminate();
    });
    ws.once('open', () => resolve());
  });
}

type ServerMessage =
  | ({ event: EventFrame['event'] } & EventFrame)
  | { id: string | number | null; result?: unknown }
  | { id: string | number | null; error: { code: AgentDeskError['code']; message: string; details?: unknown } };

function parseMessage(text: string): ServerMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const event = EventFrameSchema.safeParse(raw);
  if (event.success) return event.data;
  const response = RpcResponseSchema.safeParse(raw);
  return response.success ? (response.data as ServerMessage) : undefined;
}

function notify(listeners: Set<(frame: EventFrame) => void>, frame: EventFrame): void {
  for (const listener of [...listeners]) {
    try {
      listener(frame);
    } catch {
      // One failing listener must not starve the others or kill the socket's message loop.
    }
  }
}
