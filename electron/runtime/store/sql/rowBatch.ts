import type { RowBatch, SqlValue } from './sqlPort.js';

/** A task's numbered log: its one-row statement, and the batch of a task's rows. */
export interface NumberedLog {
  readonly one: string;
  of(taskId: string): RowBatch;
}

/**
 * The rows of a task's numbered log (`task_id, seq, …columns`; seq = the task's `MAX(seq) + 1`,
 * taken inside the statement under the task's log lock, see taskLog.ts). A row is
 * `[taskId, ...columns]`. Several rows number themselves from one `MAX`: `base + 1, base + 2, …`.
 */
export function numberedLog(table: string, columns: readonly string[]): NumberedLog {
  const names = ['task_id', 'seq', ...columns].join(', ');
  const marks = columns.map(() => '?').join(', ');
  const one = `INSERT INTO ${table} (${names}) SELECT ?, COALESCE(MAX(seq), 0) + 1, ${marks} FROM ${table} WHERE task_id = ?`;
  // VALUES in FROM names its columns column1, column2, …: column1 the task, column2 the row's place.
  const picked = columns.map((_, i) => `v.column${i + 3}`).join(', ');
  const many = cachedByCount(
    (count) =>
      `INSERT INTO ${table} (${names}) SELECT v.column1, b.base + v.column2, ${picked} FROM (VALUES ${rowsOf(count, (k) => `(?, ${k}, ${marks})`)}) AS v` +
      ` CROSS JOIN (SELECT COALESCE(MAX(seq), 0) AS base FROM ${table} WHERE task_id = ?) AS b`,
  );
  return { one, of: (taskId) => ({ key: `${table}:${taskId}`, one, many, after: [taskId] }) };
}

/** Whole-row upserts on one key column (the first of `columns`): the last row of an id wins. */
export function upsertRows(table: string, columns: readonly string[], conflict: string = columns[0]!): RowBatch {
  const marks = `(${columns.map(() => '?').join(', ')})`;
  const onConflict = ` ON CONFLICT(${conflict}) DO UPDATE SET ${columns
    .filter((c) => c !== conflict)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  const at = columns.indexOf(conflict);
  return {
    key: table,
    one: head + marks + onConflict,
    many: cachedByCount((count) => head + rowsOf(count, () => marks) + onConflict),
    after: [],
    identity: (row) => String(row[at]),
  };
}

/** `(…), (…), …` for rows 1…count. */
function rowsOf(count: number, row: (k: number) => string): string {
  return Array.from({ length: count }, (_, i) => row(i + 1)).join(', ');
}

function cachedByCount(build: (count: number) => string): (count: number) => string {
  const built = new Map<number, string>();
  return (count) => {
    let sql = built.get(count);
    if (sql === undefined) built.set(count, (sql = build(count)));
    return sql;
  };
}
