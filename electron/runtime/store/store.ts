import path from 'node:path';
import { ApprovalRepo } from './approvalRepo.js';
import { PeopleRepo } from './peopleRepo.js';
import { openDatabase, type Durability } from './database.js';
import { GrantRepo } from './grantRepo.js';
import { IdempotencyRepo } from './idempotencyRepo.js';
import { redactingSql } from './sql/redactingSql.js';
import { SqliteDatabase } from './sql/sqliteAdapter.js';
import type { SqlDatabase, SqlDialect, SqlSession } from './sql/sqlPort.js';
import { StepRepo } from './stepRepo.js';
import { InboxNews, TaskEventRepo } from './taskEventRepo.js';
import { TaskRepo } from './taskRepo.js';
import { TraceRepo } from './traceRepo.js';
import { Redactor } from '../trace/redactor.js';

/** The repositories of the task record, over one session: the database itself, or one transaction. */
export interface Repos {
  /** The session the repositories use: other repositories (cron, memory, agents…) are built on it. */
  readonly sql: SqlSession;
  readonly tasks: TaskRepo;
  readonly steps: StepRepo;
  readonly approvals: ApprovalRepo;
  readonly people: PeopleRepo;
  readonly grants: GrantRepo;
  readonly trace: TraceRepo;
  /** A task's conversation as people read it (messages, model text, the answer). */
  readonly events: TaskEventRepo;
  readonly idempotency: IdempotencyRepo;
  /**
   * Runs `fn` once what was written here has landed (at once outside a transaction; never when the
   * transaction rolls back): events about rows must not reach listeners before the rows do.
   */
  afterCommit(fn: () => void): void;
}

/** The task record's repositories over one session; `inbox` hears of messages written (once they landed). */
export function reposOn(
  sql: SqlSession,
  afterCommit: (fn: () => void) => void = (fn) => fn(),
  inbox?: InboxNews,
  dataFolder?: string,
): Repos {
  return {
    sql,
    afterCommit,
    tasks: new TaskRepo(sql, dataFolder),
    steps: new StepRepo(sql),
    approvals: new ApprovalRepo(sql),
    people: new PeopleRepo(sql),
    grants: new GrantRepo(sql),
    trace: new TraceRepo(sql),
    events: new TaskEventRepo(sql, inbox && ((taskId) => afterCommit(() => inbox.mark(taskId)))),
    idempotency: new IdempotencyRepo(sql),
  };
}

/** The store's repositories (set from `reposOn` in the constructor). */
export interface Store extends Omit<Repos, 'sql'> {}

/**
 * The runtime's durable state through the store port (docs/architecture.md, "The store"): the
 * embedded SQLite file or a shared PostgreSQL server, one repository per table. Every value
 * written (or looked up) passes the redactor first — the one place secrets are kept off the disk.
 */
export class Store {
  /** The database as repositories use it: every bound value redacted. */
  readonly sql: SqlDatabase;
  /** Tasks whose inbox this process wrote (their planners read it at once). */
  readonly inboxNews = new InboxNews();

  /** `dataFolder`: where this process keeps task workspaces (they are stored relative to it). */
  constructor(
    database: SqlDatabase,
    readonly redactor: Redactor = new Redactor(),
    private readonly dataFolder?: string,
  ) {
    this.sql = redactingSql(database, redactor);
    Object.assign(this, reposOn(this.sql, undefined, this.inboxNews, dataFolder));
  }

  /** Opens the SQLite store at a file path (`:memory:` for throwaway use), its schema up to date. */
  static open(file: string, durability?: Durability, redactor?: Redactor): Store {
    const dataFolder = file === ':memory:' ? undefined : path.dirname(path.resolve(file));
    return new Store(new SqliteDatabase(openDatabase(file, durability)), redactor, dataFolder);
  }

  get dialect(): SqlDialect {
    return this.sql.dialect;
  }

  /**
   * Runs `fn` in one write transaction: all of it lands, or none. `fn` writes through the
   * repositories it is given (a statement on the store itself from inside would run outside it).
   */
  async transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T> {
    const landed: (() => void)[] = [];
    const result = await this.sql.transaction((tx) => fn(reposOn(tx, (after) => void landed.push(after), this.inboxNews, this.dataFolder)));
    for (const after of landed) after();
    return result;
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
