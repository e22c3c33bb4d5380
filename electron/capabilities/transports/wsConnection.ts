import { randomUUID } from 'node:crypto';
import type { WebSocket, RawData } from 'ws';
import type { RpcResponse, Scope } from '../../contract/index.js';
import {
  createConnectionSubscriptions,
  type CallContext,
  type Dispatcher,
  type EventBus,
  type GatewayLog,
} from '../../runtime/gateway/index.js';
import type { Credential } from './bearerAuth.js';

/** Close code for a peer that does not read fast enough ("try again later"). */
export const SLOW_CONSUMER_CLOSE_CODE = 1013;

/** What one accepted WebSocket connection is served with. */
export interface ConnectionOptions {
  dispatcher: Dispatcher;
  bus: EventBus;
  scopes: readonly Scope[];
  log: GatewayLog;
  /** Unsent bytes above which the connection is closed with 1013. */
  maxBufferedBytes: number;
  /** The token this connection proved; its scopes replace `scopes`, and a revoked one ends the connection. */
  credential?: Credential;
}

/** Close code for a connection whose token was revoked (policy violation). */
export const REVOKED_CLOSE_CODE = 1008;
/** Close code for a connection whose token could not be checked (server error). */
export const CHECK_FAILED_CLOSE_CODE = 1011;

/**
 * Serves RPC over one connection: each text frame is one request answered by one response,
 * `events.subscribe` adds filters that live exactly as long as this connection.
 */
export function serveConnection(ws: WebSocket, options: ConnectionOptions): void {
  const { credential } = options;
  // Who decided shows in approvals and traces: the token's name, or `gateway` for the default token.
  const clientId = `${credential?.label ?? 'gateway'}:${randomUUID()}`;
  const holds = async () => credential === undefined || (await credential.stillValid());
  // The token could not be checked (a store failure): the connection ends, it is not told its token was revoked.
  const fail = (error: unknown) => {
    options.log('websocket connection could not check its token', { clientId, error });
    ws.close(CHECK_FAILED_CLOSE_CODE, 'cannot check the token');
  };
  // Frames leave one after another, in the order sent: the check before each one must not reorder them.
  let outgoing = Promise.resolve();
  const enqueue = (step: () => Promise<void>) => void (outgoing = outgoing.then(step).catch(fail));
  // Every frame out, answers and pushed events alike, first asks whether the token still holds.
  const send = (frame: unknown) =>
    enqueue(async () => {
      if (ws.readyState !== ws.OPEN) return;
      if (await holds()) sendFrame(ws, frame, options);
      else endRevoked(ws, options);
    });
  const subscriptions = createConnectionSubscriptions(options.bus, send);
  const ctx: CallContext = {
    scopes: credential?.scopes ?? options.scopes,
    clientId,
    subscribe: subscriptions.subscribe,
    ...(credential?.caller && { caller: credential.caller }),
  };

  ws.on('message', (data, isBinary) => {
    const call = async () => {
      // A revoked token's call is not run at all.
      if (!(await holds())) return enqueue(async () => endRevoked(ws, options));
      send(await answer(data, isBinary, ctx, options.dispatcher));
    };
    void call().catch(fail);
  });
  ws.on('close', () => subscriptions.close());
  // ws reports protocol violations (bad UTF-8, oversized frames) here and then closes;
  // without a listener they would crash the process.
  ws.on('error', (error) => options.log('websocket connection error', { clientId, error }));
}

async function answer(data: RawData, isBinary: boolean, ctx: CallContext, dispatcher: Dispatcher): Promise<RpcResponse> {
  if (isBinary) return invalidRequest('binary frames are not supported; send each request as a JSON text frame');
  let raw: unknown;
  try {
    raw = JSON.parse(asBuffer(data).toString('utf8'));
  } catch (error) {
    return invalidRequest(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return dispatcher.dispatch(raw, ctx);
}

function endRevoked(ws: WebSocket, options: ConnectionOptions): void {
  sendFrame(
    ws,
    { id: null, error: { code: 'unauthorized', message: 'this token was revoked; connect again with a valid token' } },
    options,
  );
  ws.close(REVOKED_CLOSE_CODE, 'token revoked');
}

function invalidRequest(message: string): RpcResponse {
  return { id: null, error: { code: 'invalid_request', message } };
}

function sendFrame(ws: WebSocket, frame: unknown, options: ConnectionOptions): void {
  if (ws.readyState !== ws.OPEN) return;
  ws.send(serialize(frame, options.log));
  if (ws.bufferedAmount > options.maxBufferedBytes) {
    // Buffering without bound would let one stalled client exhaust the gateway's memory.
    ws.close(SLOW_CONSUMER_CLOSE_CODE, 'slow consumer: too many unsent bytes');
  }
}

/** JSON text of a frame; a result JSON cannot express (a BigInt, a cycle) becomes an `internal` error. */
function serialize(frame: unknown, log: GatewayLog): string {
  try {
    return JSON.stringify(frame);
  } catch (error) {
    log('response could not be serialized', { error });
    const id = (frame as { id?: unknown }).id;
    return JSON.stringify({
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: { code: 'internal', message: 'the response could not be encoded as JSON; see the server log' },
    });
  }
}

function asBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
