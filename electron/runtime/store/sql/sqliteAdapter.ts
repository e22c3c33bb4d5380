import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import { LaterRow, type RowBatch, type SqlDatabase, type SqlResult, type SqlSession, type SqlValue } from './sqlPort.js';

/**
 * The store port over one better-sqlite3 connection. Statements are prepared once per SQL text.
 * A transaction holds the connection until it ends: statements from outside it wait, so nothing
 * joins a transaction it did not start (an `await` inside one lets other work of the process run).
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Database.Statement>();
  /** Settles when the transaction holding the connection (if any) has ended. */
  private held: Promise<void> = Promise.resolve();
  private holding = false;
  /**
   * Set inside a transaction's own flow, to name the mistake that would otherwise hang (see
   * `free`). Only when AGENT_DESK_STRICT_STORE=1 (the test suite sets it): async context tracking
   * costs every promise of the process, ~40 µs a step on the bench.
   */
  private readonly inside = process.env.AGENT_DESK_STRICT_STORE === '1' ? new AsyncLocalStorage<object>() : undefined;
  /** The token of the transaction holding the connection. */
  private holder: object | undefined;

  constructor(private readonly db: Database.Database) {}

  // The statements run synchronously: while no transaction holds the connection, no turn of
  // the event loop is spent waiting (the hot path of every step).
  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.holding ? this.afterHeld(() => this.session.all<T>(sql, params)) : this.session.all<T>(sql, params);
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return this.holding ? this.afterHeld(() => this.session.get<T>(sql, params)) : this.session.get<T>(sql, params);
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<SqlResult> {
    return this.holding ? this.afterHeld(() => this.session.run(sql, params)) : this.session.run(sql, params);
  }

  defer(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    return this.holding ? this.afterHeld(() => this.session.defer(sql, params)) : this.session.defer(sql, params);
  }

  deferRow(batch: RowBatch, row: readonly SqlValue[]): Promise<void> {
    return this.holding ? this.afterHeld(() => this.session.deferRow(batch, row)) : this.session.deferRow(batch, row);
  }

  deferGet<T>(sql: string, params: readonly SqlValue[] = []): Promise<LaterRow<T>> {
    return this.holding ? this.afterHeld(() => this.session.deferGet<T>(sql, params)) : this.session.deferGet<T>(sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.holding ? this.afterHeld(() => this.session.exec(sql)) : this.session.exec(sql);
  }

  async transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    this.refuseFromInside();
    const before = this.held;
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    await before;
    this.holding = true;
    const token = {};
    this.holder = token;
    return this.inside ? this.inside.run(token, () => this.within(fn, release)) : this.within(fn, release);
  }

  private async within<T>(fn: (tx: SqlSession) => Promise<T>, release: () => void): Promise<T> {
    try {
      // IMMEDIATE takes the write lock now: two processes never both read, then both write.
      this.prepared('BEGIN IMMEDIATE').run();
      try {
        const result = await fn(this.session);
        this.prepared('COMMIT').run();
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.prepared('ROLLBACK').run();
        throw error;
      }
    } finally {
      this.holding = false;
      this.holder = undefined;
      release();
    }
  }

  async close(): Promise<void> {
    await this.free();
    this.db.close();
  }

  /** The statements themselves, for use inside a transaction (no waiting) and by the methods above. */
  private readonly session: SqlSession = {
    dialect: 'sqlite',
    all: <T>(sql: string, params: readonly SqlValue[] = []) => settled(() => this.prepared(sql).all(...params) as T[]),
    get: <T>(sql: string, params: readonly SqlValue[] = []) => settled(() => this.prepared(sql).get(...params) as T | undefined),
    run: (sql: string, params: readonly SqlValue[] = []) => settled(() => ({ changes: this.prepared(sql).run(...params).changes })),
    // In-process: nothing to save by waiting.
    defer: (sql: string, params: readonly SqlValue[] = []) => settled(() => void this.prepared(sql).run(...params)),
    // A prepared statement per row costs SQLite less than building a multi-row one.
    deferRow: (batch: RowBatch, row: readonly SqlValue[]) => settled(() => void this.prepared(batch.one).run(...row, ...batch.after)),
    deferGet: <T>(sql: string, params: readonly SqlValue[] = []) =>
      settled(() => new LaterRow<T>().land(this.prepared(sql).get(...params) as T | undefined)),
    exec: (sql: string) => settled(() => void this.db.exec(sql)),
  };

  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Waits until no transaction holds the connection. A statement on the database itself from
   * inside a transaction would wait for that transaction forever: it is refused instead.
   */
  private async afterHeld<T>(statement: () => Promise<T>): Promise<T> {
    await this.free();
    return statement();
  }

  private async free(): Promise<void> {
    this.refuseFromInside();
    while (this.holding) await this.held;
  }

  private refuseFromInside(): void {
    if (this.holder !== undefined && this.inside?.getStore() === this.holder) {
      throw new Error('a statement on the database from inside its own transaction: use the session the transaction gives');
    }
  }
}

/** A synchronous statement's result (or error) as a settled promise. */
function settled<T>(statement: () => T): Promise<T> {
  try {
    return Promise.resolve(statement());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
