import { numberedPlaceholders } from './placeholders.js';

/**
 * The statements a PostgreSQL server keeps prepared for this process, by SQL text. A statement the
 * server parses and plans afresh costs it as much as running it (a queued task's six commits cost
 * ≈ 2.2 ms of planning and ≈ 2.5 ms of execution, docs/benchmarks.md); a prepared one is planned a
 * few times and then reuses its plan. Each text gets a name once; each connection prepares it on
 * first use: through the wire protocol for statements sent alone (`protocolName`), with a
 * `PREPARE … AS` ahead of its `EXECUTE` for those batched into a transaction's text (`batchName`).
 * See docs/architecture.md, "The store".
 */
export class PreparedStatements {
  /** Each text's two names (protocol, batch), or null when it is not to be prepared. */
  private readonly names = new Map<string, { protocol: string; batch: string } | null>();
  private readonly numbered = new Map<string, string>();
  private next = 1;
  /** The batch names each connection has prepared (SQL PREPARE outlives a rollback: only a sure one is here). */
  private readonly prepared = new WeakMap<object, Set<string>>();

  /** `sql` with PostgreSQL's `$1, $2, …` placeholders, rewritten once per text. */
  text(sql: string): string {
    let numbered = this.numbered.get(sql);
    if (numbered === undefined) this.numbered.set(sql, (numbered = numberedPlaceholders(sql)));
    return numbered;
  }

  /** The name a statement sent alone is prepared under, or undefined to send it unnamed. */
  protocolName(sql: string): string | undefined {
    return this.namesOf(sql)?.protocol;
  }

  /** The name a batched statement is PREPAREd under, or undefined to inline it as it is. */
  batchName(sql: string): string | undefined {
    return this.namesOf(sql)?.batch;
  }

  /** The batch names connection `client` has prepared. */
  preparedOn(client: object): Set<string> {
    let names = this.prepared.get(client);
    if (names === undefined) this.prepared.set(client, (names = new Set()));
    return names;
  }

  private namesOf(sql: string): { protocol: string; batch: string } | null {
    let names = this.names.get(sql);
    if (names === undefined) {
      const id = this.names.size < MAX_NAMES && preparable(sql) ? this.next++ : undefined;
      names = id === undefined ? null : { protocol: `agent_desk_p${id}`, batch: `agent_desk_b${id}` };
      this.names.set(sql, names);
    }
    return names;
  }
}

/** More distinct texts than any build of the store writes: beyond it, new texts go unprepared (server memory per connection). */
const MAX_NAMES = 500;
/** Longer texts are many-row batches of rare sizes: planning is a small part of their cost. */
const MAX_PREPARED_LENGTH = 4_000;

/**
 * Whether a statement may be kept prepared: a plain query or write (what PREPARE accepts) whose
 * result names its columns. A prepared `SELECT *` fails with "cached plan must not change result
 * type" once another version's migration adds a column, as in a rolling upgrade; a statement
 * that lists its columns is re-planned and goes on.
 */
export function preparable(sql: string): boolean {
  return (
    sql.length <= MAX_PREPARED_LENGTH &&
    /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\b/i.test(sql) &&
    !sql.replace(/COUNT\(\*\)/gi, '').includes('*')
  );
}
