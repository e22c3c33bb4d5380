import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../../../../electron/runtime/store/store.js';
import { Redactor } from '../../../../../electron/runtime/trace/redactor.js';
import { tempDir } from '../../../../support/runtime.js';
import { databaseFilesHolding } from '../../../../support/secretSearch.js';

let home: string;
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  rmSync(home, { recursive: true, force: true });
});

async function open(secrets: Record<string, string>): Promise<Store> {
  home = tempDir();
  const redactor = new Redactor();
  for (const [name, value] of Object.entries(secrets)) redactor.add(name, value);
  store = Store.open(path.join(home, 'agent-desk.db'), 'NORMAL', redactor);
  await store.sql.exec('CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT, data TEXT)');
  return store;
}

describe('the redacting store boundary', () => {
  it('redacts the values of any statement, in and out of transactions, and lookups match what was stored', async () => {
    const s = await open({ key: 'tok-1234-abcd' });
    await s.sql.run('INSERT INTO notes VALUES (?, ?, ?)', ['a', 'key tok-1234-abcd', null]);
    await s.transaction((tx) => tx.sql.run('INSERT INTO notes VALUES (?, ?, ?)', ['b', 'x', '{"k":"tok-1234-abcd"}']));
    expect(await s.sql.get('SELECT body FROM notes WHERE id = ?', ['a'])).toEqual({ body: 'key [secret:key]' });
    expect(await s.sql.get('SELECT data FROM notes WHERE id = ?', ['b'])).toEqual({ data: '{"k":"[secret:key]"}' });
    expect(await s.sql.get('SELECT id FROM notes WHERE body = ?', ['key tok-1234-abcd'])).toEqual({ id: 'a' });
    expect(await s.sql.all('SELECT id FROM notes WHERE body LIKE ? OR data LIKE ?', ['%tok-1234-abcd%', '%tok-1234-abcd%'])).toEqual([
      { id: 'a' },
      { id: 'b' },
    ]);
    expect(databaseFilesHolding(home, 'tok-1234-abcd')).toEqual([]);
  });

  it('finds a value with quotes or backslashes inside JSON text, once or twice encoded', async () => {
    const secret = 'p"a\\ss-w0rd';
    const s = await open({ pw: secret });
    const once = JSON.stringify({ body: secret });
    const twice = JSON.stringify({ output: { body: JSON.stringify({ echoed: secret }) } });
    await s.sql.run('INSERT INTO notes VALUES (?, ?, ?)', ['a', once, twice]);
    const row = (await s.sql.get<{ body: string; data: string }>('SELECT body, data FROM notes'))!;
    expect(JSON.parse(row.body)).toEqual({ body: '[secret:pw]' });
    expect(JSON.parse(JSON.parse(row.data).output.body)).toEqual({ echoed: '[secret:pw]' });
    for (const spelling of [secret, JSON.stringify(secret).slice(1, -1)]) expect(databaseFilesHolding(home, spelling)).toEqual([]);
  });

  it('keeps a JSON column valid when a value straddles JSON syntax', async () => {
    const s = await open({ odd: '1,"b":' });
    await s.sql.run('INSERT INTO notes VALUES (?, ?, ?)', ['a', null, JSON.stringify({ a: 1, b: 'x 1,"b": y' })]);
    const row = (await s.sql.get<{ data: string }>('SELECT data FROM notes'))!;
    expect(JSON.parse(row.data)).toEqual({ a: 1, b: 'x [secret:odd] y' });
  });
});
