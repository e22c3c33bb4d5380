import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, examplePlaybook, explain, type CliResult } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';
import { tempDir } from '../../support/runtime.js';

let cli: CliSandbox | undefined;
let mounts: string[] = [];
afterEach(async () => {
  for (const dir of mounts.splice(0)) execFileSync('umount', ['-l', dir]);
  await cli?.cleanup();
  cli = undefined;
});

const noTmpfs = missing('tmpfs');

/** A small tmpfs of its own: a disk the test can fill or make read-only. */
function mountTmpfs(size: string): string {
  const dir = tempDir('agent-desk-tmpfs-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

/** The CLI's answer to a broken state: exit 2, one line on stderr (no stack), and the same as JSON. */
async function expectOneLine(home: string, state: string, args: string[] = ['tasks', 'list']): Promise<string> {
  const env = { AGENT_DESK_HOME: home };
  const plain: CliResult = await cli!.run(args, { env });
  expect(plain.code, explain(plain)).toBe(2);
  const lines = plain.stderr.trim().split('\n');
  expect(lines, explain(plain)).toHaveLength(1);
  expect(lines[0]).toMatch(/^agent-desk: .+: .+/);
  expect(plain.stderr).not.toMatch(/\n\s+at /);
  const json = await cli!.run([...args, '--json'], { env });
  expect(json.code, explain(json)).toBe(2);
  expect(json.json()).toMatchObject({ error: { code: 'bad_state', message: lines[0]!.slice('agent-desk: '.length), details: { state } } });
  return lines[0]!;
}

describe('a broken data folder gets one clear line, exit 2', () => {
  it('a file that is not a database', async () => {
    cli = new CliSandbox();
    writeFileSync(path.join(cli.home, 'agent-desk.db'), 'this is not a SQLite file, it is a shopping list: eggs, milk\n'.repeat(10));
    expect(await expectOneLine(cli.home, 'corrupt')).toMatch(/is corrupt or truncated .*move it aside/);
  });

  it('a truncated database, at start and not mid-run', async () => {
    cli = new CliSandbox();
    const run = await cli.run(['run', examplePlaybook('inventory-report.yaml'), '--json']);
    expect(run.code, explain(run)).toBe(0);
    const file = path.join(cli.home, 'agent-desk.db');
    truncateSync(file, statSync(file).size - 3 * 4096);
    expect(await expectOneLine(cli.home, 'corrupt')).toMatch(/is corrupt or truncated \(SQLITE_CORRUPT\)/);
  });

  it('a database whose later pages are garbage: the first query that reads them says so', async () => {
    cli = new CliSandbox();
    for (let i = 0; i < 3; i++) expect((await cli.run(['run', examplePlaybook('inventory-report.yaml'), '--json'])).code).toBe(0);
    const file = path.join(cli.home, 'agent-desk.db');
    const size = statSync(file).size;
    const from = Math.floor((size * 0.75) / 4096) * 4096;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(size - from, 0xa5), 0, size - from, from);
    closeSync(fd);
    expect(await expectOneLine(cli.home, 'corrupt')).toMatch(/corrupt.*(move it aside|move agent-desk\.db aside)/);
  });

  it('a home that is a file', async () => {
    cli = new CliSandbox();
    const home = path.join(cli.home, 'not-a-folder');
    writeFileSync(home, 'x');
    expect(await expectOneLine(home, 'home_not_a_folder')).toMatch(/is not a folder: a file is in its place/);
    const serve = await cli.run(['serve', '--port', '0'], { env: { AGENT_DESK_HOME: home } });
    expect(serve.code, explain(serve)).toBe(2);
    expect(serve.stderr).toMatch(/^agent-desk: the data folder .* is not a folder: a file is in its place \(ENOTDIR\).*\n$/);
  });

  it.skipIf(noTmpfs)(`a read-only database and data folder${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`, async () => {
    cli = new CliSandbox();
    const disk = mountTmpfs('4m');
    const home = path.join(disk, 'home');
    expect((await cli.run(['tasks', 'list', '--json'], { env: { AGENT_DESK_HOME: home } })).code).toBe(0);
    execFileSync('mount', ['-o', 'remount,ro', disk]);
    expect(await expectOneLine(home, 'read_only')).toMatch(/is read-only \(EROFS\): make it .* writable/);
    expect(await expectOneLine(path.join(disk, 'fresh'), 'read_only')).toMatch(/read-only/);
  });

  it.skipIf(noTmpfs)(`a full disk at start${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`, async () => {
    cli = new CliSandbox();
    const disk = mountTmpfs('256k');
    mkdirSync(path.join(disk, 'home'));
    try {
      writeFileSync(path.join(disk, 'filler'), Buffer.alloc(1024 * 1024));
    } catch {
      // ENOSPC: the disk is now full, as wanted.
    }
    expect(await expectOneLine(path.join(disk, 'home'), 'disk_full')).toMatch(/disk holding .* is full .*free some space/);
  });
});

describe('modes of what the runtime creates', () => {
  it('the data folder is 0700, the database and key files 0600', async () => {
    cli = new CliSandbox();
    const home = path.join(cli.home, 'fresh');
    const set = cli.spawn(['secrets', 'set', 'api-key'], { AGENT_DESK_HOME: home });
    set.write('s3cret-value');
    set.child.stdin?.end();
    expect((await set.finished(30_000)).code, set.describe()).toBe(0);
    const mode = (file: string) => (statSync(path.join(home, file)).mode & 0o777).toString(8);
    expect(mode('.')).toBe('700');
    for (const file of ['agent-desk.db', 'secrets.key', 'secrets.enc.json']) expect([file, mode(file)]).toEqual([file, '600']);
    // SQLite gives the WAL and shared-memory files the database's mode; see them while it is open.
    const db = new Database(path.join(home, 'agent-desk.db'));
    try {
      db.prepare('SELECT COUNT(*) FROM tasks').get();
      for (const file of ['agent-desk.db-wal', 'agent-desk.db-shm']) expect([file, mode(file)]).toEqual([file, '600']);
    } finally {
      db.close();
    }
  });
});
