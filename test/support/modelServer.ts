import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderAnthropic } from './modelServerAnthropic.js';
import { renderChat } from './modelServerChat.js';
import { renderResponses } from './modelServerResponses.js';
import { rejectionOf, type Rejection } from './modelServerRules.js';

/** A scripted tool call; `arguments` may be invalid JSON text on purpose. */
export interface ScriptedToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  id?: string;
}

/** A computer-use action (Responses `computer_call` / Anthropic `computer` tool_use). */
export interface ScriptedComputerAction {
  action: Record<string, unknown>;
  id?: string;
  safetyChecks?: { id: string; code: string; message: string }[];
}

/** One scripted model answer, rendered in the wire format of the route it is served on. */
export interface ScriptedAnswer {
  text?: string;
  /** A reasoning summary (Responses `reasoning` item, Anthropic `thinking` block, Chat `reasoning_content` as DeepSeek sends it). */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  computer?: ScriptedComputerAction[];
  usage?: { input: number; output: number; cached?: number };
  /** Streaming only: close the connection after this many SSE events. */
  cutAfterEvents?: number;
  /** Never answer; the request stays open until the client goes away. */
  hang?: boolean;
}

/** A raw HTTP error reply (e.g. 429 with retry-after). */
export interface ScriptedError {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What the server may be told to answer next: an answer, an error, or a function of the request (a model that reads what it is sent). */
export type ScriptedReply =
  ScriptedAnswer | ScriptedError | ((request: ReceivedRequest) => ScriptedAnswer | ScriptedError | Promise<ScriptedAnswer | ScriptedError>);

/** The three wire protocols. */
export type ModelRoute = 'chat' | 'messages' | 'responses';

const ROUTES: Record<string, ModelRoute> = {
  '/v1/chat/completions': 'chat',
  '/v1/messages': 'messages',
  '/v1/responses': 'responses',
};

/** A request the server received, for assertions. */
export interface ReceivedRequest {
  route: ModelRoute;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** Writes SSE events, optionally cutting the connection after `cutAfter` of them. */
export interface SseWriter {
  event(data: unknown, name?: string): void;
  end(): void;
}

/**
 * The sanctioned stand-in for a model service: a real HTTP server on 127.0.0.1 that speaks
 * Chat Completions, Responses and Anthropic Messages (JSON and SSE) with scripted answers.
 * The official SDKs are pointed at it by base URL. It is as strict as the real services: a
 * request they would reject (tool schemas, images, headers, unanswered tool calls) gets their 400.
 */
export class ModelServer {
  readonly requests: ReceivedRequest[] = [];
  /** Requests answered 400/401 because the real service would reject them (see modelServerRules.ts). */
  readonly rejections: ({ route: ModelRoute } & Rejection)[] = [];
  /** Errors thrown by scripted reply functions (a test asserts this is empty). */
  readonly scriptErrors: string[] = [];
  /** Requests whose client went away before an answer (cancellation). */
  abandoned = 0;
  private readonly queues: Record<ModelRoute, ScriptedReply[]> = { chat: [], messages: [], responses: [] };
  private server: http.Server | undefined;
  private sockets = new Set<import('node:net').Socket>();

  /** Base URL with the `/v1` path, as the openai SDK wants it. */
  url = '';
  /** Base URL without `/v1`, as the Anthropic SDK wants it. */
  origin = '';

  /** Queues answers for a route. */
  script(route: ModelRoute, ...replies: ScriptedReply[]): this {
    this.queues[route].push(...replies);
    return this;
  }

  /** Requests served on a route. */
  received(route: ModelRoute): ReceivedRequest[] {
    return this.requests.filter((r) => r.route === route);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
    this.url = `${this.origin}/v1`;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const requestPath = (req.url ?? '').split('?')[0]!;
    // By suffix: OpenAI-compatible services put the API under their own prefix (e.g. /compatible-mode/v1).
    const route = Object.entries(ROUTES).find(([suffix]) => requestPath.endsWith(suffix.slice('/v1'.length)))?.[1];
    if (!route) return json(res, 404, { error: { message: `no route ${req.url}` } });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    this.requests.push({ route, path: requestPath, headers: req.headers, body });
    const rejected = rejectionOf(route, body, req.headers);
    if (rejected) {
      this.rejections.push({ route, ...rejected });
      return json(res, rejected.status, rejected.body);
    }
    const next = this.queues[route].shift();
    let reply: ScriptedAnswer | ScriptedError | undefined;
    try {
      reply = typeof next === 'function' ? await next(this.requests.at(-1)!) : next;
    } catch (error) {
      this.scriptErrors.push(String((error as Error)?.stack ?? error));
      return json(res, 500, { error: { type: 'server_error', message: `model server script failed: ${(error as Error)?.message}` } });
    }
    if (!reply) return json(res, 500, { error: { type: 'server_error', message: `model server: no scripted reply left for ${route}` } });
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      return void res.end(JSON.stringify(reply.body ?? { error: { type: 'error', message: `scripted ${reply.status}` } }));
    }
    if (reply.hang) {
      res.on('close', () => this.abandoned++);
      return;
    }
    const stream = body.stream === true;
    const sse = stream ? sseWriter(res, reply.cutAfterEvents) : undefined;
    const model = String(body.model ?? 'scripted');
    const rendered =
      route === 'chat'
        ? renderChat(reply, model, sse)
        : route === 'messages'
          ? renderAnthropic(reply, model, sse)
          : renderResponses(reply, model, sse);
    if (!stream) json(res, 200, rendered);
  }
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sseWriter(res: http.ServerResponse, cutAfter: number | undefined): SseWriter {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sent = 0;
  let cut = false;
  return {
    event(data, name) {
      if (cut) return;
      if (cutAfter !== undefined && sent >= cutAfter) {
        cut = true;
        res.socket?.destroy();
        return;
      }
      sent++;
      res.write(`${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!cut) res.end();
    },
  };
}

/** The argument text of a scripted call (objects are serialised). */
export function argumentsText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}
