import type { Redactor } from '../../trace/redactor.js';
import { redactParam } from '../redactingDatabase.js';
import type { SqlDatabase, SqlSession, SqlValue } from './sqlPort.js';

/**
 * The port's store boundary, as `redactingDatabase` is the SQLite file's: every bound value passes
 * the redactor on either adapter, so a known secret never reaches a row, whichever repository
 * writes it; lookups are redacted the same way, so they match what was stored.
 */
export function redactingSql(db: SqlDatabase, redactor: Redactor): SqlDatabase {
  const session = redactingSession(db, redactor);
  return {
    ...session,
    transaction: (fn) => db.transaction((tx) => fn(redactingSession(tx, redactor))),
    close: () => db.close(),
  };
}

function redactingSession(inner: SqlSession, redactor: Redactor): SqlSession {
  const clean = (params: readonly SqlValue[] | undefined) =>
    params === undefined || redactor.size === 0 ? params : (params.map((p) => redactParam(p, redactor)) as SqlValue[]);
  return {
    dialect: inner.dialect,
    all: (sql, params) => inner.all(sql, clean(params)),
    get: (sql, params) => inner.get(sql, clean(params)),
    run: (sql, params) => inner.run(sql, clean(params)),
    exec: (sql) => inner.exec(sql),
  };
}
