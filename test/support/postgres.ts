import { randomBytes } from 'node:crypto';
import pg from 'pg';

// A fresh database per test file on the run's throw-away cluster (test/support/postgresCluster.ts).

/** The cluster's admin URL, or undefined when the run has none (see `missing('postgres')`). */
export function postgresAdminUrl(): string | undefined {
  return process.env.AGENT_DESK_TEST_POSTGRES;
}

/** A database of its own, dropped (with its connections) by `drop`. */
export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the test cluster. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = postgresAdminUrl();
  if (!admin) throw new Error('no test PostgreSQL cluster (guard the test with missing("postgres"))');
  const name = `ad_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
