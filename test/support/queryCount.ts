import pg from 'pg';

/** Counts the queries sent to PostgreSQL servers (each is one round trip) until `stop`. */
export function countQueries(): { readonly count: number; stop(): void } {
  const original = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    get count() {
      return count;
    },
    stop: () => void (pg.Client.prototype.query = original),
  };
}
