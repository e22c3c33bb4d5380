import type Database from 'better-sqlite3';
import { ApprovalRepo } from './approvalRepo.js';
import { openDatabase, type Durability } from './database.js';
import { GrantRepo } from './grantRepo.js';
import { IdempotencyRepo } from './idempotencyRepo.js';
import { StepRepo } from './stepRepo.js';
import { TaskRepo } from './taskRepo.js';
import { TraceRepo } from './traceRepo.js';

/** The runtime's durable state: one SQLite file, one repository per table. */
export class Store {
  readonly tasks: TaskRepo;
  readonly steps: StepRepo;
  readonly approvals: ApprovalRepo;
  readonly grants: GrantRepo;
  readonly trace: TraceRepo;
  readonly idempotency: IdempotencyRepo;
  // One wrapper for every transaction: building it per call costs as much as a small commit.
  private readonly runInTransaction: (fn: () => unknown) => unknown;

  constructor(readonly db: Database.Database) {
    this.tasks = new TaskRepo(db);
    this.steps = new StepRepo(db);
    this.approvals = new ApprovalRepo(db);
    this.grants = new GrantRepo(db);
    this.trace = new TraceRepo(db);
    this.idempotency = new IdempotencyRepo(db);
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
  }

  /** Opens the store at a file path (`:memory:` for throwaway use). */
  static open(file: string, durability?: Durability): Store {
    return new Store(openDatabase(file, durability));
  }

  /** Runs `fn` in one write transaction: all of it lands, or none. */
  transaction<T>(fn: () => T): T {
    return this.runInTransaction(fn) as T;
  }

  close(): void {
    this.db.close();
  }
}
