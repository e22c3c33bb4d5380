import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, examplePlaybook, explain, fixturePlaybook } from '../../support/cliSandbox.js';

interface RunReport {
  task: { id: string; state: string; stateReason?: string; workspace: string };
  checks: { name: string; type: string; passed: boolean; output: string }[];
  steps: { index: number; tool: string; status: string }[];
  approvals: { id: string }[];
}

let cli: CliSandbox;
beforeEach(() => {
  cli = new CliSandbox();
});
afterEach(async () => {
  await cli.cleanup();
});

describe('agent-desk run (real processes)', () => {
  it('inventory-report succeeds with all three acceptance checks passing', async () => {
    const result = await cli.run(['run', examplePlaybook('inventory-report.yaml'), '--json']);
    expect(result.code, explain(result)).toBe(0);
    const report = result.json<RunReport>();
    expect(report.task.state).toBe('succeeded');
    expect(report.checks).toHaveLength(3);
    for (const check of report.checks) expect(check, `check "${check.name}"`).toMatchObject({ passed: true });
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['report has the expected content', 'API still lists five items']),
    );
    expect(report.approvals).toEqual([]);
    // The report the user gets is really in the workspace, with the CSV the API served.
    const csv = readFileSync(path.join(report.task.workspace, 'reports/inventory.csv'), 'utf8');
    expect(csv).toContain('SKU-1003,"Webcam",0,yes');
    expect(createHash('sha256').update(csv).digest('hex')).toBe('d07d2b7cf004146277083bee53162eb53390e0dbb718a32bb6a3bbce85d66e27');
  }, 120_000);

  it('a failing acceptance check fails the task (exit 1) and names the check', async () => {
    const result = await cli.run(['run', fixturePlaybook('failing-check.yaml'), '--json']);
    expect(result.code, explain(result)).toBe(1);
    const report = result.json<RunReport>();
    expect(report.task.state).toBe('failed');
    expect(report.task.stateReason).toContain('report matches the signed-off hash');
    expect(report.checks).toEqual([expect.objectContaining({ name: 'report matches the signed-off hash', passed: false })]);
    // The step itself ran: only the check says the result is wrong.
    expect(report.steps).toEqual([expect.objectContaining({ tool: 'fs.write', status: 'completed' })]);
    expect(readFileSync(path.join(report.task.workspace, 'reports/status.txt'), 'utf8')).toBe('all systems nominal\n');
  }, 120_000);

  it('an invalid playbook exits 2 and --json lists one issue per problem with its path', async () => {
    const result = await cli.run(['run', fixturePlaybook('invalid.yaml'), '--json']);
    expect(result.code, explain(result)).toBe(2);
    const { error } = result.json<{ error: { code: string; message: string; details: { issues: { path: string; message: string }[] } } }>();
    expect(error.code).toBe('invalid_playbook');
    expect(error.message).toContain('invalid.yaml');
    expect(error.details.issues).toHaveLength(2);
    expect(error.details.issues).toEqual([
      { path: 'steps[0].args.path', message: expect.any(String) },
      { path: 'steps[1].tool', message: expect.stringContaining('teleport.now') },
    ]);
    // Nothing was created for a playbook that never parsed.
    const tasks = await cli.run(['tasks', 'list', '--json']);
    expect(tasks.code, explain(tasks)).toBe(0);
    expect(tasks.json<{ tasks: unknown[] }>().tasks).toEqual([]);
  }, 120_000);

  it('an invalid playbook without --json explains each problem on stderr and exits 2', async () => {
    const result = await cli.run(['run', fixturePlaybook('invalid.yaml')]);
    expect(result.code, explain(result)).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('steps[0].args.path');
    expect(result.stderr).toContain('steps[1].tool');
  }, 120_000);
});
