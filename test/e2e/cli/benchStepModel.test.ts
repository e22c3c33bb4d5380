import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';

describe('agent-desk bench step --planner model', () => {
  const cli = new CliSandbox();
  afterEach(async () => cli.cleanup());

  it('runs model-planned goal tasks of each size and prints the median wall and CPU figures for early and late steps', async () => {
    const result = await cli.run(['bench', 'step', '--planner', 'model', '--steps', '220', '--runs', '3', '--json'], {
      timeoutMs: 120_000,
    });
    expect(result.code, explain(result)).toBe(0);
    const figures = result.json<{ planner: string; runs: Record<string, unknown>[] }>();
    expect(figures.planner).toBe('model');
    expect(figures.runs).toHaveLength(1);
    const repeats = figures.runs[0]!.repeats as { usPerStep: number; lateUsPerStep: number }[];
    expect(repeats).toHaveLength(3);
    const middle = (xs: number[]) => xs.sort((a, b) => a - b)[1];
    expect(figures.runs[0]!.usPerStep).toBe(middle(repeats.map((r) => r.usPerStep)));
    expect(figures.runs[0]!.lateUsPerStep).toBe(middle(repeats.map((r) => r.lateUsPerStep)));
    expect(figures.runs[0]).toMatchObject({
      steps: 220,
      usPerStep: expect.any(Number),
      earlyUsPerStep: expect.any(Number),
      lateUsPerStep: expect.any(Number),
      lateOverEarly: expect.any(Number),
      cpu: { usPerStep: expect.any(Number), earlyUsPerStep: expect.any(Number), lateUsPerStep: expect.any(Number) },
    });
  });

  it('an unknown planner or a size too small for the early and late windows is a usage error, not a stack trace', async () => {
    const planner = await cli.run(['bench', 'step', '--planner', 'oracle', '--json']);
    expect(planner.code).toBe(2);
    expect(planner.json()).toEqual({
      error: expect.objectContaining({ code: 'invalid_params', message: expect.stringContaining('--planner') }),
    });
    const small = await cli.run(['bench', 'step', '--planner', 'model', '--steps', '50', '--json']);
    expect(small.code).toBe(2);
    expect(small.stderr).not.toMatch(/at .*\.js:\d+/);
    const runs = await cli.run(['bench', 'step', '--planner', 'model', '--steps', '220', '--runs', '0', '--json']);
    expect(runs.code).toBe(2);
    expect(runs.json()).toEqual({ error: expect.objectContaining({ code: 'invalid_params', message: expect.stringContaining('--runs') }) });
  });
});
