import type Database from 'better-sqlite3';

/** Responses of side-effecting RPC calls by (method, idempotency key), so a retry returns the first answer. */
export class IdempotencyRepo {
  constructor(private readonly db: Database.Database) {}

  get(method: string, key: string): { paramsDigest: string; response: unknown } | undefined {
    const row = this.db.prepare('SELECT params_digest, response FROM rpc_idempotency WHERE method = ? AND key = ?').get(method, key) as
      { params_digest: string; response: string } | undefined;
    return row && { paramsDigest: row.params_digest, response: JSON.parse(row.response) };
  }

  /**
   * Records the first answer for (method, key) unless one exists; false when it did. Run inside the
   * transaction of the effect itself, a second writer's effect rolls back with it.
   */
  claim(method: string, key: string, paramsDigest: string, response: unknown): boolean {
    const result = this.db
      .prepare(
        'INSERT INTO rpc_idempotency (method, key, params_digest, response, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .run(method, key, paramsDigest, JSON.stringify(response), new Date().toISOString());
    return result.changes === 1;
  }

  put(method: string, key: string, paramsDigest: string, response: unknown): void {
    this.db
      .prepare('INSERT OR IGNORE INTO rpc_idempotency (method, key, params_digest, response, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(method, key, paramsDigest, JSON.stringify(response), new Date().toISOString());
  }
}
