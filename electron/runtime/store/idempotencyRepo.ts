import type { SqlSession } from './sql/sqlPort.js';

const INSERT =
  'INSERT INTO rpc_idempotency (method, key, params_digest, response, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING';

/** Responses of side-effecting RPC calls by (method, idempotency key), so a retry returns the first answer. */
export class IdempotencyRepo {
  constructor(private readonly db: SqlSession) {}

  async get(method: string, key: string): Promise<{ paramsDigest: string; response: unknown } | undefined> {
    const row = await this.db.get<{ params_digest: string; response: string }>(
      'SELECT params_digest, response FROM rpc_idempotency WHERE method = ? AND key = ?',
      [method, key],
    );
    return row && { paramsDigest: row.params_digest, response: JSON.parse(row.response) };
  }

  /**
   * Records the first answer for (method, key) unless one exists; false when it did. Run inside the
   * transaction of the effect itself, a second writer's effect rolls back with it.
   */
  async claim(method: string, key: string, paramsDigest: string, response: unknown): Promise<boolean> {
    const result = await this.db.run(INSERT, [method, key, paramsDigest, JSON.stringify(response), new Date().toISOString()]);
    return result.changes === 1;
  }

  async put(method: string, key: string, paramsDigest: string, response: unknown): Promise<void> {
    await this.claim(method, key, paramsDigest, response);
  }
}
