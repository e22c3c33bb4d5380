import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../electron/runtime/store/migrations/index.js';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { missing } from '../../support/requirements.js';

// `agent-desk db migrate` as an operator runs it: on the local file, on a PostgreSQL database
// named by AGENT_DESK_DATABASE_URL or config.json (its password from the secret store), and
// against a server that is not there.

const noPostgres = missing('postgres');
const LATEST = MIGRATIONS.at(-1)!.version;
let cli: CliSandbox;
let database: TestDatabase | undefined;
afterEach(async () => {
  await cli?.cleanup();
  await database?.drop();
  database = undefined;
});

describe('agent-desk db migrate', () => {
  it('on the embedded store, names the file and its schema version', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['db', 'migrate', '--json']);
    expect(result.code, explain(result)).toBe(0);
    expect(result.json()).toMatchObject({ store: { kind: 'sqlite', where: path.join(cli.home, 'agent-desk.db') }, schema: LATEST });
  });

  it('an unreachable PostgreSQL is one line saying what to fix, exit 2, with no password shown', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['db', 'migrate'], { env: { AGENT_DESK_DATABASE_URL: 'postgres://ada:hunter22@127.0.0.1:1/agent_desk' } });
    expect(result.code, explain(result)).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^agent-desk: cannot open the PostgreSQL store at postgres:\/\/ada:\*\*\*@127\.0\.0\.1:1\/agent_desk: .*is the server running and listening there\?$/,
      ),
    ]);
    expect(result.stderr + result.stdout).not.toContain('hunter22');
  });

  it('a URL that is not postgres:// is refused as bad input', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['db', 'migrate', '--json'], { env: { AGENT_DESK_DATABASE_URL: 'mysql://db/agent_desk' } });
    expect(result.code, explain(result)).toBe(2);
    expect(result.json<{ error: { code: string } }>().error.code).toBe('invalid_params');
  });
});

describe.skipIf(noPostgres)(`agent-desk db migrate on PostgreSQL${noPostgres ? ` (skipped: ${noPostgres})` : ''}`, () => {
  it('creates the schema once from AGENT_DESK_DATABASE_URL; run again, it has nothing to do', async () => {
    cli = new CliSandbox();
    database = await createTestDatabase();
    const env = { AGENT_DESK_DATABASE_URL: database.url };
    const first = await cli.run(['db', 'migrate', '--json'], { env });
    expect(first.code, explain(first)).toBe(0);
    expect(first.json()).toEqual({
      store: { kind: 'postgres', where: database.url },
      schema: LATEST,
      applied: MIGRATIONS.map((m) => m.version),
    });
    const again = await cli.run(['db', 'migrate'], { env });
    expect(again.stdout.trim()).toBe(`postgres store at ${database.url}: schema v${LATEST} (already up to date)`);
  });

  it('takes the password from the secret config.json names; a missing secret says how to store it', async () => {
    cli = new CliSandbox();
    database = await createTestDatabase();
    const config = { store: { kind: 'postgres', url: database.url, passwordSecret: 'pg-password' } };
    writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify(config));
    const missingSecret = await cli.run(['db', 'migrate']);
    expect(missingSecret.code, explain(missingSecret)).toBe(2);
    expect(missingSecret.stderr).toContain('agent-desk secrets set pg-password');
    // The test cluster trusts loopback, so any password opens it: what counts is that one was found.
    const setting = cli.spawn(['secrets', 'set', 'pg-password']);
    setting.write('not-a-real-password');
    setting.child.stdin?.end();
    expect((await setting.finished(45_000)).code).toBe(0);
    const migrated = await cli.run(['db', 'migrate', '--json']);
    expect(migrated.code, explain(migrated)).toBe(0);
    expect(migrated.json<{ schema: number }>().schema).toBe(LATEST);
  });

  it('run keeps its task on the PostgreSQL store (migrating an empty database first), not in the local file', async () => {
    cli = new CliSandbox();
    database = await createTestDatabase();
    const env = { AGENT_DESK_DATABASE_URL: database.url };
    writeFileSync(path.join(cli.home, 'echo.yaml'), 'name: echo\nsteps:\n  - tool: echo\n    args: { value: hi }\n');
    const result = await cli.run(['run', path.join(cli.home, 'echo.yaml')], { env });
    expect(result.code, explain(result)).toBe(0);
    const onPostgres = await cli.run(['tasks', 'list', '--json'], { env });
    expect(onPostgres.json<{ tasks: { title: string; state: string }[] }>().tasks).toMatchObject([{ title: 'echo', state: 'succeeded' }]);
    const local = await cli.run(['tasks', 'list', '--json']);
    expect(local.json<{ tasks: unknown[] }>().tasks).toEqual([]);
  });
});
