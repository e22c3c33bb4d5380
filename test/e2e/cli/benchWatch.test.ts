import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { postgresAdminUrl } from '../../support/postgres.js';
import { missing } from '../../support/requirements.js';

type Figures = { store: string; tasks: number; heard: number; createdElsewhereToGatewayEventMs: { p50: number; p99: number; max: number } };

describe('agent-desk bench watch', () => {
  const cli = new CliSandbox();
  afterEach(async () => cli.cleanup());

  it('on SQLite: every task another connection created reaches the gateway, and the wait is printed as JSON', async () => {
    const result = await cli.run(['bench', 'watch', '--tasks', '10', '--json'], { timeoutMs: 120_000 });
    expect(result.code, explain(result)).toBe(0);
    const figures = result.json<Figures>();
    expect(figures).toMatchObject({ store: 'sqlite', tasks: 10, heard: 10 });
    expect(figures.createdElsewhereToGatewayEventMs.max).toBeGreaterThanOrEqual(figures.createdElsewhereToGatewayEventMs.p50);
  });

  const noPostgres = missing('postgres');
  it.skipIf(noPostgres !== undefined)(
    `on PostgreSQL, through its notices${noPostgres ? ` (needs postgres: ${noPostgres})` : ''}`,
    async () => {
      const result = await cli.run(['bench', 'watch', '--tasks', '10', '--store', 'postgres', '--json'], {
        timeoutMs: 120_000,
        env: { AGENT_DESK_DATABASE_URL: postgresAdminUrl()! },
      });
      expect(result.code, explain(result)).toBe(0);
      expect(result.json<Figures>()).toMatchObject({ store: 'postgres', tasks: 10, heard: 10 });
    },
  );
});
