import { migrateDatabase } from '../../electron/runtime/store/migrate.js';
import { PostgresDatabase } from '../../electron/runtime/store/sql/postgresAdapter.js';
import { createTestDatabase } from './postgres.js';
import { missing } from './requirements.js';
import { openTestRuntime, type TestRuntime, type TestRuntimeOptions } from './runtime.js';

// Suites that must hold on both stores run once per kind: the embedded SQLite file (in the test's
// home) and a real PostgreSQL database of their own on the run's throw-away cluster.

/** The stores a both-stores suite runs on. */
export const STORE_KINDS = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** Why a kind cannot run here: PostgreSQL may be missing (CI requires it, so there this throws). */
export const storeMissing = (kind: StoreKind): string | undefined => (kind === 'postgres' ? missing('postgres') : undefined);

/**
 * `openTestRuntime` on a store of this kind: SQLite in the home, or a new migrated PostgreSQL
 * database that `cleanup` drops. `reopen` and `another` open the same database again.
 */
export async function openStoreTestRuntime(kind: StoreKind, options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  if (kind === 'sqlite') return openTestRuntime(options);
  const database = await createTestDatabase();
  const db = new PostgresDatabase({ url: database.url });
  try {
    await migrateDatabase(db);
  } finally {
    await db.close();
  }
  const harness = openTestRuntime({ ...options, storeTarget: { kind: 'postgres', url: database.url } });
  const cleanup = harness.cleanup;
  harness.cleanup = async () => {
    await cleanup();
    await database.drop();
  };
  return harness;
}
