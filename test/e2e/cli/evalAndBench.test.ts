import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../../support/cliSandbox.js';

describe('agent-desk eval and bench context', () => {
  const cli = new CliSandbox();
  afterEach(async () => cli.cleanup());

  it('`eval evals --json` prints completion rate, model calls, prompt tokens and cost per task', async () => {
    const result = await cli.run(['eval', 'evals', '--json'], { timeoutMs: 120_000 });
    expect(result.code).toBe(0);
    const report = result.json<{ completionRate: number; passed: number; tasks: number; perTask: Record<string, unknown>[] }>();
    expect(report.passed).toBe(report.tasks);
    expect(report.completionRate).toBeGreaterThan(0.5);
    for (const task of report.perTask)
      expect(Object.keys(task)).toEqual(expect.arrayContaining(['modelCalls', 'promptTokens', 'costUsd', 'steps', 'approvalsAsked']));
  });

  it('`bench context --json` prints the token totals, ratio and stable-prefix share', async () => {
    const result = await cli.run(['bench', 'context', '--json']);
    expect(result.code).toBe(0);
    const figures = result.json<Record<string, number>>();
    expect(Object.keys(figures)).toEqual(
      expect.arrayContaining(['promptTokensTotal', 'naivePromptTokensTotal', 'ratio', 'stablePrefixShare']),
    );
    expect(figures.ratio).toBeLessThanOrEqual(0.25);
    expect(figures.stablePrefixShare).toBeGreaterThanOrEqual(0.85);
  });
});
