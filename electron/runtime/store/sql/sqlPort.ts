// The store port: what every repository may ask of a database, asynchronously, so the same
// repository runs on the embedded SQLite file and on a shared PostgreSQL server.
// See docs/architecture.md, "The store".

/** Which SQL a statement may use beyond the common subset (placeholders are `?` on both). */
export type SqlDialect = 'sqlite' | 'postgres';

/** A bound value: text, a number, or NULL (booleans are stored as 0/1 on both dialects). */
export type SqlValue = string | number | bigint | null | Buffer;

/** What a statement changed. */
export interface SqlResult {
  changes: number;
}

/** Statements on one connection (inside a transaction, or the database's own). */
export interface SqlSession {
  readonly dialect: SqlDialect;
  /** Every row the statement returns. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<SqlResult>;
  /**
   * A write whose result nobody reads (a step row, a trace event): inside a PostgreSQL transaction
   * it is sent with the next statement or the commit, so a commit of many writes is one or two
   * round trips; elsewhere it runs now. Its error, if any, fails the transaction at that point.
   */
  defer(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /**
   * A row nobody reads back, written as `defer` writes: inside a PostgreSQL transaction the rows
   * of one batch key share one statement, at the place of the first (nothing deferred between
   * them may depend on the later rows being absent); elsewhere the row's own statement runs now.
   */
  deferRow(batch: RowBatch, row: readonly SqlValue[]): Promise<void>;
  /**
   * A write whose returned row is wanted only once the transaction has committed (a task's new
   * state, announced after the commit): sent as `defer` sends it, so inside a PostgreSQL
   * transaction it goes with the COMMIT and the commit stays one round trip. Its `row` may be
   * read only after the transaction; elsewhere the statement runs now.
   */
  deferGet<T>(sql: string, params?: readonly SqlValue[]): Promise<LaterRow<T>>;
  /** Several statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The row a deferred statement returns: there once its transaction committed. */
export class LaterRow<T> {
  private value: T | undefined;
  private landed = false;

  /** The statement's row (undefined when it returned none). */
  get row(): T | undefined {
    if (!this.landed) throw new Error('a deferred row read before its transaction committed');
    return this.value;
  }

  /** Called by the adapter with the statement's first row. */
  land(row: T | undefined): this {
    this.value = row;
    this.landed = true;
    return this;
  }
}

/** What a channel listener is told: each notice's payload, and the loss of its connection (it then hears nothing more). */
export interface SqlNoticeHandlers {
  notice(payload: string): void;
  lost(error: Error): void;
}

/** A database: statements, transactions, and its end. */
export interface SqlDatabase extends SqlSession {
  /**
   * Listens on a notice channel on a connection of its own (PostgreSQL's LISTEN); resolves with
   * its stop. Absent where the database has no channels (SQLite).
   */
  listen?(channel: string, handlers: SqlNoticeHandlers): Promise<() => Promise<void>>;
  /**
   * Runs `fn` in one write transaction on one connection: all of it lands, or none (a throw rolls
   * it back). Transactions of one process run one after another.
   */
  transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Rows that may share one statement. A run's commit writes many rows of a kind — a step row, two
 * trace events and a planner turn for each of ~25 steps — and on PostgreSQL every statement
 * costs the server a parse and a plan. Inside a PostgreSQL transaction the rows of one batch key
 * wait and go as one multi-row statement (`many`), at the place of the first of them; elsewhere
 * (SQLite, a statement outside a transaction) each row is its `one` statement, run at once.
 * Built by `rowBatch.ts`; see docs/architecture.md, "The store".
 */
export interface RowBatch {
  /** Rows with the same key may share a statement (one task's trace events; every step row). */
  readonly key: string;
  /** The statement for one row; its params are the row, then `after`. */
  readonly one: string;
  /** The statement for `count` rows (count ≥ 2); its params are the rows in order, flattened, then `after`. */
  many(count: number): string;
  /** Params after the rows: what the statement looks up (the task whose `MAX(seq)` numbers them). */
  readonly after: readonly SqlValue[];
  /** For upserts: the row's identity; of rows with the same identity only the last is written. */
  identity?(row: readonly SqlValue[]): string;
}
