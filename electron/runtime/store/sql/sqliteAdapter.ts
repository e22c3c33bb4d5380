import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { SqlDatabase, SqlResult, SqlSession, SqlValue } from './sqlPort.js';

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
  /** Set inside a transaction's own flow, to name the mistake that would otherwise hang (see `free`). */
  private readonly inside = new AsyncLocalStorage<object>();
  /** The token of the transaction holding the connection. */
  private holder: object | undefined;

  constructor(private readonly db: Database.Database) {}

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    await this.free();
    return this.session.all<T>(sql, params);
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    await this.free();
    return this.session.get<T>(sql, params);
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<SqlResult> {
    await this.free();
    return this.session.run(sql, params);
  }

  async exec(sql: string): Promise<void> {
    await this.free();
    return this.session.exec(sql);
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
    return this.inside.run(token, () => this.within(fn, release));
  }

  private async within<T>(fn: (tx: SqlSession) => Promise<T>, release: () => void): Promise<T> {
    try {
      // IMMEDIATE takes the write lock now: two processes never both read, then both write.
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.session);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
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
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => this.prepared(sql).all(...params) as T[],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) => this.prepared(sql).get(...params) as T | undefined,
    run: async (sql: string, params: readonly SqlValue[] = []) => ({ changes: this.prepared(sql).run(...params).changes }),
    exec: async (sql: string) => void this.db.exec(sql),
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
  private async free(): Promise<void> {
    this.refuseFromInside();
    while (this.holding) await this.held;
  }

  private refuseFromInside(): void {
    if (this.holder !== undefined && this.inside.getStore() === this.holder) {
      throw new Error('a statement on the database from inside its own transaction: use the session the transaction gives');
    }
  }
}
