import { describe, expect, it } from 'vitest';
import { preparable, PreparedStatements } from '../../../../../electron/runtime/store/sql/preparedStatements.js';

describe('which statements are kept prepared', () => {
  it('queries and writes that name their result columns', () => {
    expect(preparable('SELECT id, title FROM tasks WHERE id = ?')).toBe(true);
    expect(preparable('UPDATE tasks SET state = ? WHERE id = ? RETURNING id, state')).toBe(true);
    expect(preparable('INSERT INTO notes (id) VALUES (?)')).toBe(true);
    expect(preparable('SELECT state, COUNT(*) AS n FROM task_queue GROUP BY state')).toBe(true);
    expect(preparable('  WITH x AS (SELECT 1 AS a) SELECT a FROM x')).toBe(true);
  });

  it('not a `*` result (a newer version’s column would fail it), nor a statement PREPARE refuses', () => {
    expect(preparable('SELECT * FROM tasks WHERE id = ?')).toBe(false);
    expect(preparable('SELECT q.* FROM task_queue q')).toBe(false);
    expect(preparable('DELETE FROM grants WHERE id = ? RETURNING *')).toBe(false);
    expect(preparable('ANALYZE task_queue')).toBe(false);
    expect(preparable('LISTEN agent_desk')).toBe(false);
    expect(preparable('BEGIN')).toBe(false);
    expect(preparable(`INSERT INTO t (a) VALUES ${'(?), '.repeat(2_000)}(?)`)).toBe(false);
  });

  it('one name per text, one for each way of preparing; texts past the cap go unnamed', () => {
    const statements = new PreparedStatements();
    const a = statements.protocolName('SELECT a FROM t WHERE id = ?');
    expect(a).toMatch(/^agent_desk_p\d+$/);
    expect(statements.protocolName('SELECT a FROM t WHERE id = ?')).toBe(a);
    expect(statements.batchName('SELECT a FROM t WHERE id = ?')).toBe(a!.replace('_p', '_b'));
    expect(statements.protocolName('SELECT b FROM t WHERE id = ?')).not.toBe(a);
    expect(statements.text('SELECT a FROM t WHERE id = ? AND b = ?')).toBe('SELECT a FROM t WHERE id = $1 AND b = $2');
    for (let i = 0; i < 600; i++) statements.protocolName(`SELECT c${i} FROM t`);
    expect(statements.protocolName('SELECT d FROM t')).toBeUndefined();
  });
});
