/**
 * A row type's columns as a select list (`id, title, …`). Taking every key of the row as a record
 * lets the compiler check that the list and the row type agree. Statements name their columns instead of `*` so PostgreSQL may keep them prepared: a prepared
 * `*` fails once a newer version adds a column (preparedStatements.ts).
 */
export function columnList<Row>(columns: Record<keyof Row, true>): string {
  return Object.keys(columns).join(', ');
}
