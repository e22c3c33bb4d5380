import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { quoteLiteral } from '../../../../../electron/runtime/store/sql/postgresAdapter.js';

describe('a PostgreSQL literal for an inlined value', () => {
  it("is written exactly as pg's escapeLiteral writes it", () => {
    const client = new pg.Client();
    const values = ['', 'plain', "it's", "''", 'back\\slash', "\\'", "'\\", '价格 ¥12', "'; DROP TABLE tasks; --", 'a\nb\tc', '$1 ?'];
    for (const value of values) expect(quoteLiteral(value), value).toBe(client.escapeLiteral(value));
  });
});
