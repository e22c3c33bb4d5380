import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { McpServerConfig } from '../../../../electron/contract/index.js';
import { McpManager } from '../../../../electron/capabilities/mcp/mcpManager.js';
import { McpServerConfigSchema } from '../../../../electron/contract/index.js';
import { REPO_ROOT } from '../../../support/cliSandbox.js';
import { pollUntil } from '../../../support/poll.js';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

/** The entry script of an official reference server installed from npm. */
export const referenceServer = (name: 'filesystem' | 'memory' | 'everything'): string =>
  path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');

/** A stdio server config running a reference server with this Node. */
export function stdioServer(
  name: 'filesystem' | 'memory' | 'everything',
  args: string[] = [],
  extra: Record<string, unknown> = {},
): McpServerConfig {
  return McpServerConfigSchema.parse({ transport: 'stdio', command: process.execPath, args: [referenceServer(name), ...args], ...extra });
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** server-everything speaking Streamable HTTP on a free (or the given) port; resolves once it answers. */
export async function startEverythingHttp(at?: number): Promise<{ url: string; port: number; child: ChildProcess; stop(): void }> {
  const port = at ?? (await freePort());
  const child = spawn(process.execPath, [referenceServer('everything'), 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  await pollUntil('server-everything to listen', () => (output.includes('listening') ? true : undefined), {
    timeoutMs: 20_000,
    lastSeen: () => output,
  });
  return { url: `http://127.0.0.1:${port}/mcp`, port, child, stop: () => void child.kill('SIGTERM') };
}

/** A Streamable HTTP server config for `url`, with the per-call timeout the HTTP tests use. */
export function httpServer(url: string, extra: Record<string, unknown> = {}): McpServerConfig {
  return McpServerConfigSchema.parse({ transport: 'http', url, timeoutMs: 30_000, ...extra });
}

/** What a test file opened through `useMcpRuntime`: a real runtime (temp home, SQLite) and its MCP manager. */
export interface McpRuntime {
  harness: TestRuntime;
  manager: McpManager;
}

/**
 * Per-test MCP runtimes for one test file: `open` makes a runtime with an MCP manager attached to its
 * registry, `everythingHttp` starts an HTTP server-everything; all are closed or stopped after each test.
 * Call once at the top of the file; `harness`/`manager` read the runtime the current test opened.
 */
export function useMcpRuntime(): McpRuntime & {
  open(config?: Record<string, unknown>, options?: { reconnectDelaysMs?: number[] }): McpRuntime;
  everythingHttp(at?: number): ReturnType<typeof startEverythingHttp>;
} {
  let current: McpRuntime | undefined;
  const stops: (() => void)[] = [];
  afterEach(async () => {
    await current?.manager.close();
    await current?.harness.cleanup();
    for (const stop of stops.splice(0)) stop();
    current = undefined;
  });
  const opened = (): McpRuntime => {
    if (!current) throw new Error('no MCP runtime: call open() in this test first');
    return current;
  };
  return {
    open(config = {}, { reconnectDelaysMs = [] } = {}) {
      const harness = openTestRuntime({ config });
      const manager = new McpManager({ home: harness.home, clientVersion: 'test', reconnectDelaysMs, registry: harness.rt.registry });
      current = { harness, manager };
      return current;
    },
    async everythingHttp(at) {
      const server = await startEverythingHttp(at);
      stops.push(server.stop);
      return server;
    },
    get harness() {
      return opened().harness;
    },
    get manager() {
      return opened().manager;
    },
  };
}
