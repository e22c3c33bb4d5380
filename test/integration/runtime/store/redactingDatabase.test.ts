import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../../../electron/runtime/store/store.js';
import { Redactor } from '../../../../electron/runtime/trace/redactor.js';
import { tempDir } from '../../../support/runtime.js';
import { databaseFilesHolding } from '../../../support/secretSearch.js';

let home: string;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  rmSync(home, { recursive: true, force: true });
});

function open(secrets: Record<string, string>): Store {
  home = tempDir();
  const redactor = new Redactor();
  for (const [name, value] of Object.entries(secrets)) redactor.add(name, value);
  store = Store.open(path.join(home, 'agent-desk.db'), 'NORMAL', redactor);
  store.db.exec('CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT, data TEXT)');
  return store;
}

describe('the redacting database', () => {
  it('redacts positional and named values of any statement, and lookups match what was stored', () => {
    const s = open({ key: 'tok-1234-abcd' });
    s.db.prepare('INSERT INTO notes VALUES (?, ?, ?)').run('a', 'key tok-1234-abcd', null);
    s.db.prepare('INSERT INTO notes VALUES (@id, @body, @data)').run({ id: 'b', body: 'x', data: '{"k":"tok-1234-abcd"}' });
    const bodies = s.db.prepare('SELECT body FROM notes WHERE id = ?').pluck();
    expect(bodies.get('a')).toBe('key [secret:key]');
    expect(s.db.prepare('SELECT data FROM notes WHERE id = ?').pluck().get('b')).toBe('{"k":"[secret:key]"}');
    expect(s.db.prepare('SELECT id FROM notes WHERE body = ?').pluck().get('key tok-1234-abcd')).toBe('a');
    // bind() then run(): the bound values pass the redactor too.
    s.db.prepare('INSERT INTO notes VALUES (?, ?, ?)').bind('c', 'tok-1234-abcd', null).run();
    expect(databaseFilesHolding(home, 'tok-1234-abcd')).toEqual([]);
  });

  it('redacts through every way of calling a statement: all, iterate, raw and expand chains, a method taken off the statement', () => {
    const s = open({ key: 'tok-1234-abcd' });
    const insert = s.db.prepare('INSERT INTO notes VALUES (?, ?, ?)');
    const { run } = insert;
    run('a', 'tok-1234-abcd', null);
    insert.run('b', 'also tok-1234-abcd', null);
    const byBody = s.db.prepare('SELECT id FROM notes WHERE body LIKE ?');
    expect(byBody.pluck().all('%tok-1234-abcd%')).toEqual(['a', 'b']);
    expect([...byBody.pluck().iterate('%tok-1234-abcd')]).toEqual(['a', 'b']);
    expect(s.db.prepare('SELECT id, body FROM notes WHERE body = ?').raw().get('tok-1234-abcd')).toEqual(['a', '[secret:key]']);
    expect(s.db.prepare('SELECT id FROM notes WHERE body = ?').expand().get('tok-1234-abcd')).toEqual({ notes: { id: 'a' } });
    expect(databaseFilesHolding(home, 'tok-1234-abcd')).toEqual([]);
  });

  it('finds a value with quotes or backslashes inside JSON text, once or twice encoded', () => {
    const secret = 'p"a\\ss-w0rd';
    const s = open({ pw: secret });
    const once = JSON.stringify({ body: secret });
    const twice = JSON.stringify({ output: { body: JSON.stringify({ echoed: secret }) } });
    s.db.prepare('INSERT INTO notes VALUES (?, ?, ?)').run('a', once, twice);
    const row = s.db.prepare('SELECT body, data FROM notes').get() as { body: string; data: string };
    expect(JSON.parse(row.body)).toEqual({ body: '[secret:pw]' });
    expect(JSON.parse(JSON.parse(row.data).output.body)).toEqual({ echoed: '[secret:pw]' });
    for (const spelling of [secret, JSON.stringify(secret).slice(1, -1)]) expect(databaseFilesHolding(home, spelling)).toEqual([]);
  });

  it('keeps a JSON column valid when a value straddles JSON syntax', () => {
    const s = open({ odd: '1,"b":' });
    s.db.prepare('INSERT INTO notes VALUES (?, ?, ?)').run('a', null, JSON.stringify({ a: 1, b: 'x 1,"b": y' }));
    const data = s.db.prepare('SELECT data FROM notes').pluck().get() as string;
    expect(JSON.parse(data)).toEqual({ a: 1, b: 'x [secret:odd] y' });
  });
});
