import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';

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
});
