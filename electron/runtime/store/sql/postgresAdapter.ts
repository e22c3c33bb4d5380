import pg from 'pg';
import { numberedPlaceholders } from './placeholders.js';
import type { SqlDatabase, SqlNoticeHandlers, SqlResult, SqlSession, SqlValue } from './sqlPort.js';

/** BIGINT (int8) columns come back as numbers: counters, sizes and sequence numbers stay below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (text: string) => Number(text) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** How the PostgreSQL adapter connects. */
export interface PostgresOptions {
  /** `postgres://user@host:port/database` (a password here, or in `password`). */
  url: string;
  password?: string;
  /** Pool size; default 10. */
  max?: number;
  /** Milliseconds to wait for a connection before the start fails; default 5,000. */
  connectTimeoutMs?: number;
}

/** The store port over a `pg` pool: each statement takes a pooled connection, a transaction keeps one. */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly sqlText = new Map<string, string>();

  constructor(private readonly options: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.url,
      ...(options.password !== undefined && { password: options.password }),
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      types,
    });
    // An idle connection the server dropped: the pool replaces it; the next statement reconnects.
    this.pool.on('error', (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
  }

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return sessionOf(this.pool, this.sqlText).all<T>(sql, params);
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return sessionOf(this.pool, this.sqlText).get<T>(sql, params);
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<SqlResult> {
    return sessionOf(this.pool, this.sqlText).run(sql, params);
  }

  exec(sql: string): Promise<void> {
    return sessionOf(this.pool, this.sqlText).exec(sql);
  }

  async transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A connection lost while checked out is reported here, not thrown at the process: the statement in flight fails with it.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await fn(sessionOf(client, this.sqlText));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw error;
    } finally {
      client.off('error', onError);
      // A connection that broke or could not even roll back is dropped, not handed to the next caller.
      client.release(broken);
    }
  }

  /** LISTEN on a client of its own (a pooled one would be handed to others); its stop ends the client. */
  async listen(channel: string, handlers: SqlNoticeHandlers): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    const client = new pg.Client({
      connectionString: this.options.url,
      ...(this.options.password !== undefined && { password: this.options.password }),
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5_000,
    });
    let stopped = false;
    const lost = (error: Error) => {
      if (stopped) return;
      stopped = true;
      client.end().catch(() => undefined);
      handlers.lost(error);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('the listening connection ended')));
    client.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) handlers.notice(n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      stopped = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    return async () => {
      stopped = true;
      await client.end().catch(() => undefined);
    };
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Statements through a pool (a connection per statement) or one client (a transaction's). */
function sessionOf(queryable: pg.Pool | pg.PoolClient, sqlText: Map<string, string>): SqlSession {
  const text = (sql: string) => {
    let numbered = sqlText.get(sql);
    if (numbered === undefined) sqlText.set(sql, (numbered = numberedPlaceholders(sql)));
    return numbered;
  };
  const query = <T extends pg.QueryResultRow>(sql: string, params: readonly SqlValue[]) =>
    queryable.query<T>(text(sql), params as unknown[]);
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => (await query<T & pg.QueryResultRow>(sql, params)).rows as T[],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      (await query<T & pg.QueryResultRow>(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, params: readonly SqlValue[] = []) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    exec: async (sql: string) => void (await queryable.query(sql)),
  };
}
