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
  // Repositories prepare a statement once and call it per step: wrap each method once, not per call.
  const wrapped = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  const proxy: Database.Statement = new Proxy(statement, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let fn = wrapped.get(prop);
      if (!fn) {
        fn = wrapMethod(target, value as (...args: unknown[]) => unknown, BINDING_METHODS.has(prop), redactor, () => proxy);
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
  return proxy;
}

/** A statement method that redacts its bound values (binding methods) and hands out the proxy for chaining. */
function wrapMethod(
  target: Database.Statement,
  method: (...args: unknown[]) => unknown,
  binds: boolean,
  redactor: Redactor,
  proxy: () => Database.Statement,
): (...args: unknown[]) => unknown {
  // pluck(), raw(), expand(), … return the statement itself: keep handing out the proxy.
  if (!binds)
    return (...args) => {
      const result = method.apply(target, args);
      return result === target ? proxy() : result;
    };
  return (...params) => {
    const result = method.apply(target, redactor.size === 0 ? params : params.map((p) => redactParam(p, redactor)));
    return result === target ? proxy() : result;
  };
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
