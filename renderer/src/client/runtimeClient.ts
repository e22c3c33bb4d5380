import type { EventName, EventPayloads, MethodName, MethodParams, MethodResult } from '../../../electron/contract/index.js';

/** Per-call options. */
export interface CallOptions {
  /** For side-effecting methods: a repeat with the same key returns the first result. */
  idempotencyKey?: string;
}

/** A pushed event, typed by its name. */
export type RuntimeEvent = { [K in EventName]: { event: K; data: EventPayloads[K] } }[EventName];

/** How the UI talks to the runtime: WebSocket in the browser, IPC in the Electron window. */
export interface RuntimeClient {
  /** Calls one RPC method; rejects with a RuntimeError carrying the server's code. */
  call<M extends MethodName>(method: M, params: MethodParams<M>, opts?: CallOptions): Promise<MethodResult<M>>;
  /** Receives pushed events; returns the unsubscribe function. */
  onEvent(listener: (event: RuntimeEvent) => void): () => void;
  /** Called once when an open connection drops (not after `close()`); returns the unsubscribe function. */
  onClose(listener: () => void): () => void;
  close(): void;
}

/** An RPC failure as the server reported it (`{code, message, details}`; codes as in the contract's ErrorShape). */
export class RuntimeError extends Error {
  readonly code: string;
  readonly details: unknown;
  constructor(shape: { code: string; message: string; details?: unknown }) {
    super(shape.message);
    this.name = 'RuntimeError';
    this.code = shape.code;
    this.details = shape.details;
  }
}
