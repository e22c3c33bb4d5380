import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { ALL_SCOPES, type Scope } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import type { Dispatcher, EventBus, GatewayLog } from '../../runtime/gateway/index.js';
import { authenticate, chooseSubprotocol, requestUrl, type TokenVerifier } from './bearerAuth.js';
import { serveConnection } from './wsConnection.js';

/** The path WebSocket clients connect to. */
export const RPC_PATH = '/rpc';
/** Largest accepted request frame. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** Default unsent-bytes limit per connection before it is closed as a slow consumer. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** Handles plain HTTP requests other than `/healthz` (the web UI, say). */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Options of `startWsGateway`. */
export interface WsGatewayOptions {
  /** Defaults to 127.0.0.1; a non-loopback address also needs `allowRemote: true`. */
  host?: string;
  /** Defaults to 0: any free port. */
  port?: number;
  /** The bearer token every WebSocket client must present. */
  token: string;
  dispatcher: Dispatcher;
  bus: EventBus;
  /** Scopes granted to holders of `token`; defaults to every scope but `operator.secrets`. */
  scopes?: readonly Scope[];
  /** Issued tokens (`tokens.create`), each opening a connection with its own scopes. */
  tokens?: TokenVerifier;
  httpHandler?: HttpHandler;
  log?: GatewayLog;
  /** Listen on a non-loopback address; the token then crosses the network. */
  allowRemote?: boolean;
  maxBufferedBytes?: number;
}

/** A running gateway. */
export interface WsGateway {
  /** `ws://host:port/rpc`. */
  url: string;
  /** `http://host:port`. */
  httpUrl: string;
  port: number;
  /** Closes every connection (code 1001) and stops listening. */
  close(): Promise<void>;
}

/** Starts the headless gateway: RPC over WebSocket at `/rpc`, `/healthz`, and optional HTTP routes. */
export async function startWsGateway(options: WsGatewayOptions): Promise<WsGateway> {
  const host = options.host ?? '127.0.0.1';
  assertListenable(host, options);
  const log = options.log ?? ((message, fields) => console.error(message, fields));
  const connection = {
    dispatcher: options.dispatcher,
    bus: options.bus,
    scopes: options.scopes ?? ALL_SCOPES.filter((s) => s !== 'operator.secrets'),
    log,
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
  };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD_BYTES,
    handleProtocols: (offered) => chooseSubprotocol(offered),
  });
  const server = createServer((req, res) => void handleHttp(req, res, options.httpHandler, log));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (requestUrl(req)?.pathname !== RPC_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    void authenticate(req, { token: options.token, scopes: connection.scopes }, options.tokens).then(
      (credential) => {
        if (!credential) return refuseUpgrade(socket, 401, 'Unauthorized');
        wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, { ...connection, credential }));
      },
      (error: unknown) => {
        // The issued tokens could not be read (a store failure): neither let in nor called a bad token.
        log('gateway could not check a token', { error });
        refuseUpgrade(socket, 503, 'Service Unavailable');
      },
    );
  });

  const port = await listen(server, host, options.port ?? 0);
  server.on('error', (error) => log('gateway http server error', { error }));
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `ws://${authority}${RPC_PATH}`,
    httpUrl: `http://${authority}`,
    port,
    close: () => (closing ??= shutDown(wss, server)),
  };
}

function assertListenable(host: string, options: WsGatewayOptions): void {
  if (typeof options.token !== 'string' || options.token.length === 0) {
    throw new AgentDeskError('invalid_params', 'the gateway needs a non-empty token; generate one and pass it as `token`');
  }
  if (!isLoopback(host) && options.allowRemote !== true) {
    throw new AgentDeskError(
      'forbidden',
      `refusing to listen on ${host}: only loopback addresses are allowed; pass allowRemote: true ` +
        'to expose the gateway (and its token) to the network',
      { host },
    );
  }
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

async function handleHttp(req: IncomingMessage, res: ServerResponse, httpHandler: HttpHandler | undefined, log: GatewayLog): Promise<void> {
  if (req.method === 'GET' && requestUrl(req)?.pathname === '/healthz') return sendJson(res, 200, { ok: true });
  if (!httpHandler) {
    return sendJson(res, 404, { error: { code: 'not_found', message: `no route for ${req.method} ${req.url}` } });
  }
  try {
    await httpHandler(req, res);
  } catch (error) {
    log('http handler failed', { url: req.url, error });
    if (!res.headersSent) sendJson(res, 500, { error: { code: 'internal', message: 'internal error' } });
    else res.destroy();
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Answers a refused upgrade with a plain HTTP status, then drops the socket. */
function refuseUpgrade(socket: Duplex, status: 401 | 404 | 503, reason: string): void {
  const body = `${reason}\n`;
  const auth = status === 401 ? 'WWW-Authenticate: Bearer\r\n' : '';
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n${auth}` +
      `Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(new AgentDeskError('unavailable', `cannot listen on ${host}:${port}: ${error.message}`));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function shutDown(wss: WebSocketServer, server: Server): Promise<void> {
  const closed = [...wss.clients].map(
    (ws) =>
      new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1001, 'gateway shutting down');
      }),
  );
  // A peer that never answers the close handshake is cut off instead of holding shutdown.
  const cutOff = setTimeout(() => wss.clients.forEach((ws) => ws.terminate()), 1000);
  await Promise.all(closed);
  clearTimeout(cutOff);
  wss.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
