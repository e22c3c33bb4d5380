import type { Redactor } from '../../trace/redactor.js';
import type { SqlDatabase, SqlSession, SqlValue } from './sqlPort.js';

/**
 * The store boundary: every value bound to any statement passes the redactor, on either adapter,
 * so a known secret value never reaches a row, the WAL, a trace export or a log built from rows —
 * whichever repository writes it (tasks, steps, approvals, trace, memory, cron, agents, queue).
 * Lookups are redacted the same way, so they match what was stored. SQL text is not touched:
 * repositories bind values, they never splice them into SQL.
 */
export function redactingSql(db: SqlDatabase, redactor: Redactor): SqlDatabase {
  const session = redactingSession(db, redactor);
  return {
    ...session,
    transaction: (fn) => db.transaction((tx) => fn(redactingSession(tx, redactor))),
    // Notices carry ids, never values: nothing to redact.
    ...(db.listen && { listen: db.listen.bind(db) }),
    close: () => db.close(),
  };
}

function redactingSession(inner: SqlSession, redactor: Redactor): SqlSession {
  // Only text can hold a secret; JSON text keeps its syntax (the redactor knows JSON spellings).
  const clean = (params: readonly SqlValue[] | undefined) =>
    params === undefined || redactor.size === 0 ? params : params.map((p) => (typeof p === 'string' ? redactor.jsonText(p) : p));
  return {
    dialect: inner.dialect,
    all: (sql, params) => inner.all(sql, clean(params)),
    get: (sql, params) => inner.get(sql, clean(params)),
    run: (sql, params) => inner.run(sql, clean(params)),
    defer: (sql, params) => inner.defer(sql, clean(params)),
    deferRow: (batch, row) => inner.deferRow(batch, clean(row)!),
    deferGet: (sql, params) => inner.deferGet(sql, clean(params)),
    exec: (sql) => inner.exec(sql),
  };
}
