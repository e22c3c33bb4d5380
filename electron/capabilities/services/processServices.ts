import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import type { PlaybookService } from '../../contract/index.js';
import type { RunningServices, ServiceHost } from '../../runtime/engine/ports.js';
import { AgentDeskError } from '../../runtime/errors.js';

/** A free loopback TCP port, chosen by the kernel. */
async function freePort(preferred = 0): Promise<number> {
  const server = createServer();
  server.listen(preferred, '127.0.0.1');
  const failed = once(server, 'error').then(() => 'error' as const);
  if ((await Promise.race([once(server, 'listening').then(() => 'ok' as const), failed])) === 'error') return freePort(0);
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new AgentDeskError('unavailable', `service exited with code ${child.exitCode} before it was ready: ${withoutStack(output())}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new AgentDeskError('unavailable', `service not ready at ${url} after ${timeoutMs} ms: ${withoutStack(output())}`);
}

/** A service's last output as a person reads it: its messages, not the stack frames or the source excerpt Node prints. */
export function withoutStack(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(
      (l) => l.trim() !== '' && !/^\s+at /.test(l) && !/^node:internal\//.test(l) && !/^\s*\^+\s*$/.test(l) && !/^Node\.js v/.test(l),
    );
  // Node's crash report: where it threw, the source line, then `Error: …`; the message is what matters.
  const error = lines.findIndex((l) => /^([A-Z]\w*)?Error\b/.test(l));
  return (error >= 0 ? lines.slice(error) : lines).slice(-3).join('\n');
}

/** A script a service runs that is not there: named with where it was looked for and how to fix it. */
function checkScripts(service: PlaybookService, args: readonly string[], baseDir: string): void {
  for (const [i, part] of service.command.slice(1).entries()) {
    if (!part.startsWith('.') || existsSync(args[i]!)) continue;
    throw new AgentDeskError(
      'invalid_params',
      `service ${service.name}: ${part} is not at ${args[i]} (relative paths resolve against the playbook's folder, ${baseDir}); ` +
        'send the playbook with its folder (playbook.baseDir) or run it from its file',
    );
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const exited = once(child, 'exit');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/**
 * Runs playbook services as child processes on free loopback ports. The child gets `PORT`,
 * `HOST=127.0.0.1` and `AGENT_DESK_WORKSPACE`; it is killed when the run ends (and with its
 * parent, since it is not detached).
 */
export class ProcessServiceHost implements ServiceHost {
  async start(
    services: readonly PlaybookService[],
    opts: { baseDir: string; workspace: string; ports?: Record<string, number> },
  ): Promise<RunningServices> {
    const children: ChildProcess[] = [];
    const urls: Record<string, string> = {};
    const stop = async () => void (await Promise.all(children.map(stopChild)));
    try {
      for (const service of services) {
        const port = await freePort(opts.ports?.[service.name] ?? 0);
        const [command, ...args] = service.command.map((part, i) =>
          i > 0 && part.startsWith('.') ? path.resolve(opts.baseDir, part) : part,
        );
        checkScripts(service, args, opts.baseDir);
        const exe = command === 'node' ? process.execPath : command!;
        const child = spawn(exe, args, {
          cwd: opts.baseDir,
          env: { ...process.env, ...service.env, PORT: String(port), HOST: '127.0.0.1', AGENT_DESK_WORKSPACE: opts.workspace },
          // stdin stays open while we live: services exit when it closes, even if we are killed.
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        children.push(child);
        let tail = '';
        const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-2000));
        child.stdout?.on('data', keep);
        child.stderr?.on('data', keep);
        const url = `http://127.0.0.1:${port}`;
        await waitReady(url + service.readyPath, child, service.readyTimeoutMs, () => tail);
        urls[service.name] = url;
      }
    } catch (error) {
      await stop();
      throw error;
    }
    return { urls, stop };
  }
}
