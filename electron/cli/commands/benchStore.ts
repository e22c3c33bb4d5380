import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { AgentDeskError } from '../../runtime/errors.js';
import { postgresUrl } from '../../runtime/store/sql/openSqlDatabase.js';

/** Which store a bench measures on. */
export type BenchStoreKind = 'sqlite' | 'postgres';

/** `--store sqlite|postgres`; anything else is a usage error. */
export function benchStoreKind(text: string | undefined): BenchStoreKind {
  if (text === undefined || text === 'sqlite' || text === 'postgres') return text ?? 'sqlite';
  throw new AgentDeskError('invalid_params', `--store takes sqlite or postgres, not "${text}"`);
}

/**
 * Runs `fn` with the bench's store: SQLite in the bench's own data folder, or a fresh database on
 * the PostgreSQL server AGENT_DESK_DATABASE_URL names (created for this run, dropped after), which
 * this process and the workers it starts reach through AGENT_DESK_DATABASE_URL.
 */
export async function withBenchStore<T>(kind: BenchStoreKind, fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
  if (kind === 'sqlite') {
    const server = process.env.AGENT_DESK_DATABASE_URL;
    if (server === undefined) return fn({});
    // A bench on SQLite measures SQLite, whatever the shell has set.
    delete process.env.AGENT_DESK_DATABASE_URL;
    try {
      return await fn({});
    } finally {
      process.env.AGENT_DESK_DATABASE_URL = server;
    }
  }
  const server = postgresUrl({ kind: 'sqlite' });
  if (server === undefined) {
    throw new AgentDeskError(
      'invalid_params',
      '--store postgres measures on a PostgreSQL server: set AGENT_DESK_DATABASE_URL=postgres://user@host:port/db (the bench creates and drops a database of its own there)',
    );
  }
  const name = `agent_desk_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env.AGENT_DESK_DATABASE_URL = url.href;
  try {
    return await fn({ AGENT_DESK_DATABASE_URL: url.href });
  } finally {
    process.env.AGENT_DESK_DATABASE_URL = server;
    await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query(sql);
  } catch (error) {
    throw new AgentDeskError('bad_state', `bench: the PostgreSQL server refused "${sql}": ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
