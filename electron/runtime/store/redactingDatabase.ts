import type Database from 'better-sqlite3';
import type { Redactor } from '../trace/redactor.js';

/** Statement methods that take bound parameters. */
const BINDING_METHODS = new Set<PropertyKey>(['run', 'get', 'all', 'iterate', 'bind']);

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

function redactingStatement(statement: Database.Statement, redactor: Redactor): Database.Statement {
  const proxy: Database.Statement = new Proxy(statement, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (BINDING_METHODS.has(prop)) {
        return (...params: unknown[]) => {
          const result = method.apply(target, redactor.size === 0 ? params : params.map((p) => redactParam(p, redactor)));
          return result === target ? proxy : result;
        };
      }
      // pluck(), raw(), expand(), … return the statement itself: keep handing out the proxy.
      return (...args: unknown[]) => {
        const result = method.apply(target, args);
        return result === target ? proxy : result;
      };
    },
  });
  return proxy;
}

/** A positional value, or an object of named values; only text can hold a secret. */
function redactParam(param: unknown, redactor: Redactor): unknown {
  if (typeof param === 'string') return redactor.jsonText(param);
  if (param === null || typeof param !== 'object' || Buffer.isBuffer(param) || ArrayBuffer.isView(param)) return param;
  if (Array.isArray(param)) return param.map((p) => redactParam(p, redactor));
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(param)) named[key] = typeof value === 'string' ? redactor.jsonText(value) : value;
  return named;
}
