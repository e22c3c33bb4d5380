import type Database from 'better-sqlite3';
import type { Redactor } from '../trace/redactor.js';

/** Statement methods that take bound parameters. */
const BINDING_METHODS = ['run', 'get', 'all', 'iterate', 'bind'] as const;

/**
 * The store boundary: every value bound to any statement of this database passes the redactor,
 * so a known secret value never reaches a row, the WAL, a trace export or a log built from rows
 * — whichever repository writes it (tasks, steps, approvals, trace, memory, cron, agents, queue).
 * Lookups are redacted the same way, so they match what was stored. SQL text is not touched:
 * repositories bind values, they never splice them into SQL.
 */
export function redactingDatabase(db: Database.Database, redactor: Redactor): Database.Database {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => redactingStatement(target.prepare(sql), redactor);
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (!bound.has(prop)) bound.set(prop, (value as (...args: unknown[]) => unknown).bind(target));
      return bound.get(prop);
    },
  });
}

/**
 * The statement itself, its binding methods replaced by redacting ones (own properties, set once
 * at prepare). Repositories prepare a statement once and call it per step: no proxy sits in front
 * of every call, and pluck(), raw(), expand(), bind() — which return the statement — keep
 * returning this same, redacting, object.
 */
function redactingStatement(statement: Database.Statement, redactor: Redactor): Database.Statement {
  for (const name of BINDING_METHODS) {
    const method = (statement as unknown as Record<string, unknown>)[name];
    if (typeof method !== 'function') continue;
    Object.defineProperty(statement, name, {
      value: (...params: unknown[]) =>
        (method as (...args: unknown[]) => unknown).apply(
          statement,
          redactor.size === 0 ? params : params.map((p) => redactParam(p, redactor)),
        ),
      writable: false,
      configurable: false,
    });
  }
  return statement;
}

/** A positional value, or an object of named values; only text can hold a secret. */
export function redactParam(param: unknown, redactor: Redactor): unknown {
  if (typeof param === 'string') return redactor.jsonText(param);
  if (param === null || typeof param !== 'object' || Buffer.isBuffer(param) || ArrayBuffer.isView(param)) return param;
  if (Array.isArray(param)) return param.map((p) => redactParam(p, redactor));
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(param)) named[key] = typeof value === 'string' ? redactor.jsonText(value) : value;
  return named;
}
