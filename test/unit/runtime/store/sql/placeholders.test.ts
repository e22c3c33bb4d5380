import { describe, expect, it } from 'vitest';
import { numberedPlaceholders } from '../../../../../electron/runtime/store/sql/placeholders.js';

describe('numberedPlaceholders', () => {
  it('numbers each ? in order', () => {
    expect(numberedPlaceholders('UPDATE t SET a = ?, b = ? WHERE id = ?')).toBe('UPDATE t SET a = $1, b = $2 WHERE id = $3');
  });

  it('leaves a ? inside quoted text, a quoted name or a comment alone (it is data, not a parameter)', () => {
    const sql = `SELECT '?', 'it''s ?', "odd?name" FROM t -- why?\nWHERE a = ?`;
    expect(numberedPlaceholders(sql)).toBe(`SELECT '?', 'it''s ?', "odd?name" FROM t -- why?\nWHERE a = $1`);
  });
});
