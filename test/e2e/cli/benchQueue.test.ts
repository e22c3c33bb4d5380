import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { postgresAdminUrl } from '../../support/postgres.js';
import { missing } from '../../support/requirements.js';

describe('agent-desk bench queue', () => {
  const cli = new CliSandbox();
  afterEach(async () => cli.cleanup());

  it('`bench queue --json` runs every queued task and prints tasks/s and peak RSS', async () => {
    const result = await cli.run(['bench', 'queue', '--tasks', '40', '--concurrency', '4', '--json'], { timeoutMs: 120_000 });
    expect(result.code, explain(result)).toBe(0);
    const figures = result.json<Record<string, unknown>>();
    expect(figures).toMatchObject({ tasks: 40, concurrency: 4, succeeded: 40 });
    expect(figures.tasksPerSecond).toEqual(expect.any(Number));
    expect(figures.tasksPerSecond).toBeGreaterThan(0);
    expect(figures.peakRssMb).toBeGreaterThan(0);
  });

  it('`bench queue --workers 1,2` drains the backlog with worker processes and prints tasks/s, wait to claim and RSS per worker', async () => {
    const result = await cli.run(['bench', 'queue', '--tasks', '30', '--concurrency', '2', '--workers', '1,2', '--json'], {
      timeoutMs: 180_000,
    });
    expect(result.code, explain(result)).toBe(0);
    const figures = result.json<{
      tasks: number;
      runs: { workers: number; tasksPerSecond: number; waitToClaimMs: { p50: number; p99: number }; peakRssMbPerWorker: number[] }[];
    }>();
    expect(figures.tasks).toBe(30);
    expect(figures.runs.map((r) => r.workers)).toEqual([1, 2]);
    for (const run of figures.runs) {
      expect(run.tasksPerSecond).toBeGreaterThan(0);
      expect(run.waitToClaimMs.p99).toBeGreaterThanOrEqual(run.waitToClaimMs.p50);
      expect(run.peakRssMbPerWorker).toHaveLength(run.workers);
      for (const mb of run.peakRssMbPerWorker) expect(mb).toBeGreaterThan(0);
    }
  });

  it('a --workers list that is not counts is a usage error, not a stack trace', async () => {
    const result = await cli.run(['bench', 'queue', '--workers', '1,zero', '--json']);
    expect(result.code, explain(result)).toBe(2);
    expect(result.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('--workers'),
    });
  });

  const noPostgres = missing('postgres');
  it.skipIf(noPostgres !== undefined)(
    `\`bench queue --store postgres --workers 1,2\` drains a fresh database on the server with worker processes, and drops it${noPostgres ? ` (needs postgres: ${noPostgres})` : ''}`,
    async () => {
      const admin = postgresAdminUrl()!;
      const benchDatabases = async () => {
        const client = new pg.Client({ connectionString: admin });
        await client.connect();
        const rows = (await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'agent_desk_bench_%'")).rows;
        await client.end();
        return rows.length;
      };
      const before = await benchDatabases();
      const result = await cli.run(
        ['bench', 'queue', '--tasks', '20', '--concurrency', '2', '--workers', '1,2', '--store', 'postgres', '--json'],
        {
          timeoutMs: 180_000,
          env: { AGENT_DESK_DATABASE_URL: admin },
        },
      );
      expect(result.code, explain(result)).toBe(0);
      const figures = result.json<{ store: string; runs: { workers: number; tasksPerSecond: number }[] }>();
      expect(figures.store).toBe('postgres');
      expect(figures.runs.map((r) => r.workers)).toEqual([1, 2]);
      for (const run of figures.runs) expect(run.tasksPerSecond).toBeGreaterThan(0);
      expect(await benchDatabases()).toBe(before);
    },
  );

  it('`--store postgres` with no server named says what to set, exit 2', async () => {
    const result = await cli.run(['bench', 'queue', '--store', 'postgres', '--json']);
    expect(result.code, explain(result)).toBe(2);
    expect(result.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('AGENT_DESK_DATABASE_URL'),
    });
  });
});
