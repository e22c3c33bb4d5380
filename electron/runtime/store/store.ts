import type Database from 'better-sqlite3';
import { ApprovalRepo } from './approvalRepo.js';
import { openDatabase, type Durability } from './database.js';
import { GrantRepo } from './grantRepo.js';
import { IdempotencyRepo } from './idempotencyRepo.js';
import { redactingDatabase } from './redactingDatabase.js';
import { StepRepo } from './stepRepo.js';
import { TaskEventRepo } from './taskEventRepo.js';
import { TaskRepo } from './taskRepo.js';
import { TraceRepo } from './traceRepo.js';
import { Redactor } from '../trace/redactor.js';

/**
 * The runtime's durable state: one SQLite file, one repository per table. Every value written
 * (or looked up) passes the redactor first — the one place secrets are kept off the disk.
 */
export class Store {
  /** The database as repositories use it: every bound value redacted. */
  readonly db: Database.Database;
  readonly tasks: TaskRepo;
  readonly steps: StepRepo;
  readonly approvals: ApprovalRepo;
  readonly grants: GrantRepo;
  readonly trace: TraceRepo;
  /** A task's conversation as people read it (messages, model text, the answer). */
  readonly events: TaskEventRepo;
  readonly idempotency: IdempotencyRepo;
  // One wrapper for every transaction: building it per call costs as much as a small commit.
  private readonly runInTransaction: (fn: () => unknown) => unknown;
  private readonly runImmediate: (fn: () => unknown) => unknown;

  constructor(
    raw: Database.Database,
    readonly redactor: Redactor = new Redactor(),
  ) {
    const db = redactingDatabase(raw, redactor);
    this.db = db;
    this.tasks = new TaskRepo(db);
    this.steps = new StepRepo(db);
    this.approvals = new ApprovalRepo(db);
    this.grants = new GrantRepo(db);
    this.trace = new TraceRepo(db);
    this.events = new TaskEventRepo(db);
    this.idempotency = new IdempotencyRepo(db);
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
    this.runImmediate = db.transaction((fn: () => unknown) => fn()).immediate;
  }

  /** Opens the store at a file path (`:memory:` for throwaway use). */
  static open(file: string, durability?: Durability, redactor?: Redactor): Store {
    return new Store(openDatabase(file, durability), redactor);
  }

  /** Runs `fn` in one write transaction: all of it lands, or none. */
  transaction<T>(fn: () => T): T {
    return this.runInTransaction(fn) as T;
  }

  /**
   * A write transaction that takes the write lock before its first read: for read-then-decide
   * work several processes may do at once (firing a cron time), so each reads what the last one
   * committed instead of failing on a stale snapshot.
   */
  immediateTransaction<T>(fn: () => T): T {
    return this.runImmediate(fn) as T;
  }

  close(): void {
    this.db.close();
  }
}
