import WebSocket from 'ws';
import type { Scope } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import {
  createDispatcher,
  createEventBus,
  type Dispatcher,
  type EventBus,
  type Handlers,
} from '../../../../electron/runtime/gateway/index.js';
import { startWsGateway, type WsGateway, type WsGatewayOptions } from '../../../../electron/capabilities/transports/wsServer.js';
import { aTask, memoryIdempotencyStore } from '../../../unit/runtime/gateway/gatewayFixtures.js';

export const TOKEN = 'test-token-0123456789abcdef';

/** A real gateway on 127.0.0.1 with a small handler table. */
export interface Harness {
  gateway: WsGateway;
  bus: EventBus;
  dispatcher: Dispatcher;
  logged: { message: string; fields?: Record<string, unknown> }[];
}

/** Starts a gateway whose handlers answer system.info, tasks.get (not_found) and tasks.create (echo). */
export async function startHarness(options: Partial<WsGatewayOptions> & { scopes?: readonly Scope[] } = {}): Promise<Harness> {
  const logged: Harness['logged'] = [];
  const log = (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields });
  const bus = options.bus ?? createEventBus();
  let created = 0;
  const handlers: Handlers = {
    'system.info': () => ({
      name: 'agent-desk',
      version: '0.1.0',
      node: process.version,
      home: '/tmp/agent-desk',
      pid: process.pid,
      startedAt: '2025-01-01T00:00:00.000Z',
      methods: dispatcher.methods(),
    }),
    'tasks.get': ({ taskId }) => {
      throw new AgentDeskError('not_found', `no task ${taskId}`, { taskId });
    },
    'tasks.create': (params) => aTask({ id: `t${++created}`, title: params.title ?? 'untitled' }),
  };
  const dispatcher = createDispatcher({ handlers, idempotency: memoryIdempotencyStore(), log });
  const gateway = await startWsGateway({ token: TOKEN, dispatcher, bus, log, ...options });
  return { gateway, bus, dispatcher, logged };
}

/** A raw WebSocket with a queue of parsed incoming frames, for tests that speak the wire format. */
export interface RawSocket {
  ws: WebSocket;
  /** The next frame from the server (parsed JSON), waiting for it if needed. */
  next(timeoutMs?: number): Promise<unknown>;
  /** Frames received and not yet taken. */
  queued(): unknown[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a raw socket and resolves once it is open (rejects with the HTTP status on refusal). */
export function openRaw(url: string, options: WebSocket.ClientOptions = {}, protocols?: string[]): Promise<RawSocket> {
  const ws = new WebSocket(url, protocols, options);
  const frames: unknown[] = [];
  const waiters: ((frame: unknown) => void)[] = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const raw: RawSocket = {
    ws,
    closed,
    queued: () => frames,
    next: (timeoutMs = 5000) =>
      frames.length > 0
        ? Promise.resolve(frames.shift())
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs);
            waiters.push((frame) => (clearTimeout(timer), resolve(frame)));
          }),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(raw));
    ws.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode }));
      ws.terminate();
    });
    ws.on('error', (error) => reject(error));
  });
}
