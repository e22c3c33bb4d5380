import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
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

/** A real runtime (temp home, SQLite) with an MCP manager attached to its registry. */
export function runtimeWithMcp(config: Record<string, unknown> = {}): { harness: TestRuntime; manager: McpManager } {
  const harness = openTestRuntime({ config });
  const manager = new McpManager({ home: harness.home, clientVersion: 'test', reconnectDelaysMs: [] });
  manager.attach(harness.rt.registry);
  return { harness, manager };
}
