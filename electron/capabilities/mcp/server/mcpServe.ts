import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RuntimeHandle } from '../../../runtime/core/runtimeCore.js';
import { AgentDeskError } from '../../../runtime/errors.js';
import { isAuthorized } from '../../transports/bearerAuth.js';
import { createAgentDeskMcpServer, type McpServeIdentity } from './agentDeskMcpServer.js';
import { foreignRequest } from './originCheck.js';

/** Serves Agent Desk over MCP on this process's stdin/stdout; resolves when the client disconnects. */
export async function serveMcpStdio(rt: RuntimeHandle, identity: McpServeIdentity): Promise<void> {
  const server = createAgentDeskMcpServer(rt, identity);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}

/** Options for the Streamable HTTP endpoint. */
export interface McpHttpOptions {
  host: string;
  port: number;
  /** Every request must carry `Authorization: Bearer <token>`. */
  token: string;
  identity: McpServeIdentity;
  /** A non-loopback bind must be asked for explicitly. */
  allowRemote?: boolean;
}

/** A running Streamable HTTP endpoint. */
export interface McpHttpEndpoint {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Serves Agent Desk over MCP Streamable HTTP at `/mcp`, one MCP session per client, bearer token required. */
export async function serveMcpHttp(rt: RuntimeHandle, options: McpHttpOptions): Promise<McpHttpEndpoint> {
  if (!LOOPBACK.has(options.host) && !options.allowRemote) {
    throw new AgentDeskError('invalid_params', `refusing to serve MCP on ${options.host}: bind to 127.0.0.1, or opt in to a remote bind`);
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let boundPort = options.port;
  const endpointUrl = () => `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${boundPort}/mcp`;
  const http = createServer((req, res) => void handle(req, res).catch((error: unknown) => fail(res, 500, (error as Error).message)));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Checked before anything else, so a rebound page learns nothing (not even whether the token is right).
    const foreign = foreignRequest(req, { host: options.host, port: boundPort });
    if (foreign !== undefined) return fail(res, 403, `${foreign}; connect to ${endpointUrl()} directly`);
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return fail(res, 404, 'MCP is served at /mcp');
    if (!isAuthorized(req, options.token)) return fail(res, 401, 'missing or wrong bearer token');
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (sessionId !== undefined) return fail(res, 404, 'unknown MCP session; initialize a new one');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createAgentDeskMcpServer(rt, options.identity).connect(transport);
    await transport.handleRequest(req, res);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  boundPort = (http.address() as AddressInfo).port;
  return {
    url: endpointUrl(),
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
