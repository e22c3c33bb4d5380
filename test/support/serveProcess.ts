import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { connectGateway, type GatewayClient } from '../../electron/capabilities/transports/wsClient.js';
import type { Task, TaskState } from '../../electron/contract/index.js';
import type { CliSandbox } from './cliSandbox.js';
import { pollUntil } from './poll.js';
import type { ChildHandle } from './processes.js';

/** What `agent-desk serve` writes to `<home>/gateway.json`. */
export interface GatewayInfo {
  url: string;
  httpUrl: string;
  token: string;
  pid: number;
}

/** A running `agent-desk serve` child and the gateway it announced. */
export interface ServeProcess {
  child: ChildHandle;
  info: GatewayInfo;
  /** A new RPC client; the caller closes it. */
  connect(): Promise<GatewayClient>;
}

/** Reads gateway.json once it names this process (a killed predecessor leaves its own behind). */
export function readGatewayInfo(home: string, pid: number): GatewayInfo | undefined {
  let info: GatewayInfo;
  try {
    info = JSON.parse(readFileSync(path.join(home, 'gateway.json'), 'utf8')) as GatewayInfo;
  } catch {
    return undefined; // not written yet, or half written
  }
  return info.pid === pid ? info : undefined;
}

/** A port free right now, so a restarted serve can listen where an open page expects it. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `startServe` on a fixed port (a restart comes back where the page expects it). */
export function startServeOn(sandbox: CliSandbox, port: number, more: readonly string[] = []): Promise<ServeProcess> {
  // A gateway restarted mid-soak (three workers, hundreds of tasks, two cores) took over 30 s to announce itself once.
  return startServe(sandbox, 90_000, [...more, '--port', String(port)]);
}

/** Starts `agent-desk serve --port 0` (and `more` options, `env` added) in the sandbox and waits until it announced its gateway. */
export async function startServe(
  sandbox: CliSandbox,
  timeoutMs = 30_000,
  more: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ServeProcess> {
  const child = sandbox.spawn(['serve', '--port', '0', ...more], env);
  const info = await pollUntil(
    `gateway.json of serve pid ${child.pid}`,
    () => {
      if (!child.running) throw new Error(`serve ended early.\n${child.describe()}`);
      return readGatewayInfo(sandbox.home, child.pid);
    },
    { timeoutMs },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${child.describe()}`);
  });
  return { child, info, connect: () => connectGateway(info.url, info.token) };
}

/** Polls `tasks.get` until the task is in one of `states`. */
export async function waitForTaskState(client: GatewayClient, taskId: string, states: TaskState[], timeoutMs = 30_000): Promise<Task> {
  let last: Task | undefined;
  return pollUntil(
    `task ${taskId} to become ${states.join('|')}`,
    async () => {
      last = (await client.call('tasks.get', { taskId })).task;
      return states.includes(last.state) ? last : undefined;
    },
    { timeoutMs, lastSeen: () => last && { state: last.state, stateReason: last.stateReason } },
  );
}
