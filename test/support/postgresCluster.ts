import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Vitest global setup: one throw-away PostgreSQL cluster for the whole run, started from the
// Debian server binaries (`.ci/run` installs `postgresql`). Tests read its address from
// AGENT_DESK_TEST_POSTGRES and make a database each (test/support/postgres.ts). A URL already in
// AGENT_DESK_TEST_POSTGRES is used as it is; when no server can be started, the reason goes to
// AGENT_DESK_TEST_POSTGRES_MISSING and tests needing PostgreSQL skip — or fail, under AGENT_DESK_REQUIRE.

const URL_VAR = 'AGENT_DESK_TEST_POSTGRES';
const MISSING_VAR = 'AGENT_DESK_TEST_POSTGRES_MISSING';

/** The folder with initdb and pg_ctl: on PATH, else the newest Debian server package. */
function serverBinaries(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return path.dirname(onPath);
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  return newest && existsSync(path.join(root, newest, 'bin', 'pg_ctl')) ? path.join(root, newest, 'bin') : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** initdb and postgres refuse to run as root: there the cluster belongs to `nobody`. */
function asServerUser(bin: string, args: string[], dir: string): void {
  const root = process.getuid?.() === 0;
  if (root) chownSync(dir, 65534, 65534);
  const [command, commandArgs] = root ? ['runuser', ['-u', 'nobody', '--', bin, ...args]] : [bin, args];
  execFileSync(command, commandArgs, { stdio: 'pipe', cwd: dir, timeout: 60_000 });
}

export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env[URL_VAR]) return undefined;
  const bin = serverBinaries();
  if (!bin) {
    process.env[MISSING_VAR] = 'no PostgreSQL server binaries (apt-get install postgresql)';
    return undefined;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-pg-'));
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  try {
    const port = await freePort();
    asServerUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], dir);
    // Durability settings off: these databases live for one test run (benchmarks use their own server settings).
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', 'start'], dir);
    process.env[URL_VAR] = `postgres://postgres@127.0.0.1:${port}/postgres`;
  } catch (error) {
    process.env[MISSING_VAR] = `a PostgreSQL cluster did not start (${(error as Error).message.split('\n')[0]})`;
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return () => {
    try {
      asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
