import pg from 'pg';
import { PreparedStatements } from './preparedStatements.js';
import {
  LaterRow,
  type RowBatch,
  type SqlDatabase,
  type SqlNoticeHandlers,
  type SqlResult,
  type SqlSession,
  type SqlValue,
} from './sqlPort.js';

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
  private readonly statements = new PreparedStatements();
  private readonly templates = new Map<string, SqlTemplate>();

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
    return sessionOf(this.pool, this.statements).all<T>(sql, params);
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return sessionOf(this.pool, this.statements).get<T>(sql, params);
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<SqlResult> {
    return sessionOf(this.pool, this.statements).run(sql, params);
  }

  exec(sql: string): Promise<void> {
    return sessionOf(this.pool, this.statements).exec(sql);
  }

  deferRow(batch: RowBatch, row: readonly SqlValue[]): Promise<void> {
    return sessionOf(this.pool, this.statements).deferRow(batch, row);
  }

  defer(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    return sessionOf(this.pool, this.statements).defer(sql, params);
  }

  deferGet<T>(sql: string, params: readonly SqlValue[] = []): Promise<LaterRow<T>> {
    return sessionOf(this.pool, this.statements).deferGet<T>(sql, params);
  }

  async transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A connection lost while checked out is reported here, not thrown at the process: the statement in flight fails with it.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    const tx = new BatchingTransaction(client, this.statements, this.templates);
    try {
      const result = await fn(tx.session);
      await tx.commit();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      // Statements it may or may not have prepared: the connection's names are no longer known.
      if (tx.preparesUncertain) broken ??= new Error('prepared statements uncertain after a failed batch');
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

/**
 * Statements through a pool (a connection per statement) or one client (a transaction's); each a
 * named statement the connection prepares on first use, where it may be (preparedStatements.ts).
 */
function sessionOf(queryable: pg.Pool | pg.PoolClient, statements: PreparedStatements): SqlSession {
  const query = <T extends pg.QueryResultRow>(sql: string, params: readonly SqlValue[]) => {
    const name = statements.protocolName(sql);
    const text = statements.text(sql);
    return name === undefined
      ? queryable.query<T>(text, params as unknown[])
      : queryable.query<T>({ name, text, values: params as unknown[] });
  };
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => (await query<T & pg.QueryResultRow>(sql, params)).rows as T[],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      (await query<T & pg.QueryResultRow>(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, params: readonly SqlValue[] = []) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    defer: async (sql: string, params: readonly SqlValue[] = []) => void (await query(sql, params)),
    deferRow: async (batch: RowBatch, row: readonly SqlValue[]) => void (await query(batch.one, [...row, ...batch.after])),
    deferGet: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      new LaterRow<T>().land((await query<T & pg.QueryResultRow>(sql, params)).rows[0]),
    exec: async (sql: string) => void (await queryable.query(sql)),
  };
}

/** A statement's text between its placeholders, and which param each placeholder takes. */
interface SqlTemplate {
  texts: string[];
  slots: number[];
}

/** The waiting rows of one batch key: they go as one statement at the place of the first. */
interface PendingRows {
  batch: RowBatch;
  rows: (readonly SqlValue[])[];
  /** Where each identity's row is (upserts: a later row replaces it). */
  at?: Map<string, number>;
}

/** A statement waiting in a transaction with its params (and, for `deferGet`, where its row goes). */
interface PendingStatement {
  sql: string;
  params: readonly SqlValue[];
  into?: LaterRow<unknown>;
}

/**
 * A transaction on one client whose deferred writes — and its BEGIN — wait and go with the next
 * statement or with the COMMIT, in one simple-protocol query: a commit of a step, its trace
 * events and its planner turn is one or two round trips, not one per statement. Each waiting
 * statement goes as `EXECUTE name(values)` of a statement the connection keeps prepared (a
 * `PREPARE` goes ahead of its first use), or inlined whole where it may not be prepared. Values
 * are quoted literals (`quoteLiteral`), as a parameter would be sent: text the server reads as the
 * parameter's type. Statements with no deferred writes before them go alone, as named statements.
 */
class BatchingTransaction {
  private pending: (string | PendingStatement | PendingRows)[] = ['BEGIN'];
  /** The pending row batches by key, until the next flush. */
  private batches = new Map<string, PendingRows>();
  /** True once BEGIN went to the server. */
  private begun = false;
  /** Names this transaction's text PREPAREs, until the server has run them. */
  private preparing = new Set<string>();
  /** A batch with PREPAREs failed: which of them the server ran is unknown. */
  preparesUncertain = false;
  /** The batch names this connection has prepared. */
  private readonly prepared: Set<string>;
  readonly session: SqlSession;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly statements: PreparedStatements,
    private readonly templates: Map<string, SqlTemplate>,
  ) {
    const direct = sessionOf(client, statements);
    this.prepared = statements.preparedOn(client);
    this.session = {
      dialect: 'postgres',
      all: async <T>(sql: string, params: readonly SqlValue[] = []) =>
        this.pending.length === 0 ? direct.all<T>(sql, params) : ((await this.sendWith({ sql, params })).rows as T[]),
      get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
        this.pending.length === 0 ? direct.get<T>(sql, params) : ((await this.sendWith({ sql, params })).rows[0] as T | undefined),
      run: async (sql: string, params: readonly SqlValue[] = []) =>
        this.pending.length === 0 ? direct.run(sql, params) : { changes: (await this.sendWith({ sql, params })).rowCount ?? 0 },
      defer: async (sql: string, params: readonly SqlValue[] = []) => void this.pending.push({ sql, params }),
      deferRow: async (batch: RowBatch, row: readonly SqlValue[]) => this.addRow(batch, row),
      deferGet: async <T>(sql: string, params: readonly SqlValue[] = []) => {
        const into = new LaterRow<T>();
        this.pending.push({ sql, params, into: into as LaterRow<unknown> });
        return into;
      },
      // Statements of unknown number (a migration's): what waits goes first, so each result is found by its place.
      exec: async (sql: string) => {
        if (this.pending.length > 0) await this.flush();
        await direct.exec(sql);
      },
    };
  }

  /** Everything still waiting, then COMMIT: the transaction's last round trip. */
  async commit(): Promise<void> {
    if (!this.begun && this.pending.length === 1) {
      this.pending = []; // nothing was asked: no transaction was begun on the server
      return;
    }
    this.pending.push('COMMIT');
    await this.flush();
  }

  /** The waiting statements and this one, in one query; this one's result. */
  private async sendWith(statement: PendingStatement): Promise<pg.QueryResult> {
    this.pending.push(statement);
    return this.flush();
  }

  private addRow(batch: RowBatch, row: readonly SqlValue[]): void {
    let rows = this.batches.get(batch.key);
    if (rows === undefined) {
      rows = { batch, rows: [], ...(batch.identity && { at: new Map<string, number>() }) };
      this.batches.set(batch.key, rows);
      this.pending.push(rows);
    }
    const identity = batch.identity?.(row);
    const earlier = identity === undefined ? undefined : rows.at!.get(identity);
    if (earlier !== undefined) {
      rows.rows[earlier] = row;
      return;
    }
    if (identity !== undefined) rows.at!.set(identity, rows.rows.length);
    rows.rows.push(row);
  }

  private async flush(): Promise<pg.QueryResult> {
    // Every piece of every statement goes in one list joined once: one flat string of the
    // statement's size, not a rope per value flattened again at each join and at the socket write.
    const parts: string[] = [];
    // Each statement sent is one result, a PREPARE too: a deferred row is read from its place.
    let results = 0;
    const rowsAt: [number, LaterRow<unknown>][] = [];
    for (const p of this.pending) {
      if (parts.length > 0) parts.push(';\n');
      if (typeof p === 'string') parts.push(p);
      else if ('sql' in p) results += this.statementInto(parts, p.sql, p.params) - 1;
      else results += this.rowsInto(parts, p) - 1;
      if (typeof p !== 'string' && 'into' in p && p.into) rowsAt.push([results, p.into]);
      results++;
    }
    const text = parts.join('');
    this.pending = [];
    this.batches = new Map();
    this.begun = true;
    try {
      const result = (await this.client.query(text)) as pg.QueryResult | pg.QueryResult[];
      const all = Array.isArray(result) ? result : [result];
      for (const [at, into] of rowsAt) into.land(all[at]!.rows[0]);
      return all.at(-1)!;
    } catch (error) {
      if (this.preparing.size > 0) this.preparesUncertain = true;
      throw error;
    } finally {
      if (!this.preparesUncertain) for (const name of this.preparing) this.prepared.add(name);
      this.preparing = new Set();
    }
  }

  /**
   * Appends `sql` with its params to `parts`: as EXECUTE of the prepared statement (after its
   * PREPARE, the first time), or inlined. Returns how many statements it appended.
   */
  private statementInto(parts: string[], sql: string, params: readonly SqlValue[]): number {
    const name = this.statements.batchName(sql);
    if (name === undefined) {
      this.inlineInto(parts, sql, params);
      return 1;
    }
    let count = 1;
    if (!this.preparing.has(name) && !this.prepared.has(name)) {
      parts.push('PREPARE ', name, ' AS ', this.statements.text(sql), ';\n');
      this.preparing.add(name);
      count++;
    }
    parts.push('EXECUTE ', name);
    if (params.length === 0) return count;
    parts.push('(');
    for (let i = 0; i < params.length; i++) {
      if (i > 0) parts.push(', ');
      this.literalInto(parts, params[i]);
    }
    parts.push(')');
    return count;
  }

  /** Appends `sql` with its params inlined as literals to `parts`. */
  private inlineInto(parts: string[], sql: string, params: readonly SqlValue[]): void {
    const { texts, slots } = this.templateOf(sql);
    parts.push(texts[0]!);
    for (let i = 0; i < slots.length; i++) {
      this.literalInto(parts, params[slots[i]!]);
      parts.push(texts[i + 1]!);
    }
  }

  /** The statement cut at its placeholders, once per SQL text: a commit inlines thousands of values. */
  private templateOf(sql: string): SqlTemplate {
    let template = this.templates.get(sql);
    if (template === undefined) {
      const pieces = this.statements.text(sql).split(/\$(\d+)/);
      template = {
        texts: pieces.filter((_, i) => i % 2 === 0),
        slots: pieces.filter((_, i) => i % 2 === 1).map((n) => Number(n) - 1),
      };
      this.templates.set(sql, template);
    }
    return template;
  }

  private rowsInto(parts: string[], { batch, rows }: PendingRows): number {
    if (rows.length === 1) return this.statementInto(parts, batch.one, [...rows[0]!, ...batch.after]);
    return this.statementInto(parts, batch.many(rows.length), [...rows.flat(), ...batch.after]);
  }

  private literalInto(parts: string[], value: SqlValue | undefined): void {
    if (value === null || value === undefined) parts.push('NULL');
    else if (Buffer.isBuffer(value)) parts.push(`'\\x${value.toString('hex')}'::bytea`);
    else if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`cannot store ${value}`);
    else {
      const text = String(value);
      // Most values need no escaping: the text itself goes in the list, between its quotes.
      if (/['\\]/.test(text)) parts.push(quoteLiteral(text));
      else parts.push("'", text, "'");
    }
  }
}

/**
 * `text` as a PostgreSQL string literal, as pg's `escapeLiteral` writes it (quotes doubled; with a
 * backslash, an E'' literal with backslashes doubled), by whole-string replaces: pg's char-by-char
 * concatenation left a rope that flattening at the socket write cost more than the query's parse.
 */
export function quoteLiteral(text: string): string {
  if (!/['\\]/.test(text)) return `'${text}'`;
  const quoted = `'${text.replace(/'/g, "''")}'`;
  return text.includes('\\') ? ` E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}
