import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Approval } from '../../../electron/contract/index.js';
import { CliSandbox, examplePlaybook, explain } from '../../support/cliSandbox.js';

interface RunReport {
  task: { id: string; state: string; stateReason?: string; workspace: string };
  checks: { name: string; passed: boolean }[];
  approvals: { id: string; tool: string; summary: string; preview?: string }[];
}

const OLD_LOG = 'logs/app-2026-10.log';
const CURRENT_LOG = 'logs/app-2026-11.log';
const STATUS_TEXT = 'checkout is green: 0 open incidents, p95 182 ms';

let cli: CliSandbox;
beforeEach(() => {
  cli = new CliSandbox();
});
afterEach(async () => {
  await cli.cleanup();
});

/** Runs a playbook that must stop at an approval (stdin is not a terminal) and returns its report. */
async function runUntilApproval(playbook: string): Promise<RunReport> {
  const result = await cli.run(['run', examplePlaybook(playbook), '--json']);
  expect(result.code, explain(result)).toBe(3);
  const report = result.json<RunReport>();
  expect(report.task.state).toBe('waiting_approval');
  expect(report.approvals).toHaveLength(1);
  return report;
}

async function pendingApprovals(): Promise<Approval[]> {
  const listed = await cli.run(['approvals', 'list', '--json']);
  expect(listed.code, explain(listed)).toBe(0);
  return listed.json<{ approvals: Approval[] }>().approvals;
}

async function resume(taskId: string): Promise<{ code: number | null; report: RunReport }> {
  const result = await cli.run(['run', '--resume', taskId, '--json']);
  return { code: result.code, report: result.json<RunReport>() };
}

describe('approvals from the CLI across processes', () => {
  it('cleanup-old-logs waits for approval, and once approved the resumed run deletes only the old log', async () => {
    const first = await runUntilApproval('cleanup-old-logs.yaml');
    const workspace = first.task.workspace;
    expect(first.approvals[0]).toMatchObject({ tool: 'fs.delete', summary: expect.stringContaining(`Delete ${OLD_LOG}`) });
    // Nothing was deleted while waiting.
    expect(existsSync(path.join(workspace, OLD_LOG))).toBe(true);

    const pending = await pendingApprovals();
    expect(pending).toEqual([
      expect.objectContaining({
        id: first.approvals[0]!.id,
        taskId: first.task.id,
        status: 'pending',
        tool: 'fs.delete',
        preview: expect.objectContaining({ summary: expect.stringContaining(`Delete ${OLD_LOG}`) }),
      }),
    ]);

    const approved = await cli.run(['approvals', 'approve', pending[0]!.id]);
    expect(approved.code, explain(approved)).toBe(0);
    expect(approved.stdout).toContain('approved');
    expect(await pendingApprovals()).toEqual([]);

    const { code, report } = await resume(first.task.id);
    expect(code, JSON.stringify(report)).toBe(0);
    expect(report.task).toMatchObject({ id: first.task.id, state: 'succeeded', workspace });
    expect(report.checks.map((c) => [c.name, c.passed])).toEqual([
      ['old log is gone', true],
      ['current log is kept', true],
    ]);
    expect(existsSync(path.join(workspace, OLD_LOG))).toBe(false);
    expect(readFileSync(path.join(workspace, CURRENT_LOG), 'utf8')).toContain('started');
  }, 120_000);

  it('a denial with a reason fails the resumed task with that reason and keeps the old log', async () => {
    const first = await runUntilApproval('cleanup-old-logs.yaml');
    const denied = await cli.run(['approvals', 'deny', first.approvals[0]!.id, '--reason', 'keep for audit']);
    expect(denied.code, explain(denied)).toBe(0);
    expect(denied.stdout).toContain('denied');

    const { code, report } = await resume(first.task.id);
    expect(code, JSON.stringify(report)).toBe(1);
    expect(report.task.state).toBe('failed');
    expect(report.task.stateReason).toContain('keep for audit');
    expect(existsSync(path.join(first.task.workspace, OLD_LOG))).toBe(true);

    const all = await cli.run(['approvals', 'list', '--all', '--json']);
    expect(all.json<{ approvals: Approval[] }>().approvals).toEqual([
      expect.objectContaining({ id: first.approvals[0]!.id, status: 'denied', decisionReason: 'keep for audit' }),
    ]);
  }, 120_000);

  it('send-status-update previews the message before sending, and posts it exactly once after approval', async () => {
    const first = await runUntilApproval('send-status-update.yaml');
    const outbox = path.join(first.task.workspace, 'outbox.json');
    expect(existsSync(outbox)).toBe(false); // nothing sent before the approval

    const pending = await pendingApprovals();
    expect(pending).toHaveLength(1);
    expect(pending[0]!.preview.body).toContain(STATUS_TEXT);

    const approved = await cli.run(['approvals', 'approve', pending[0]!.id]);
    expect(approved.code, explain(approved)).toBe(0);

    const { code, report } = await resume(first.task.id);
    expect(code, JSON.stringify(report)).toBe(0);
    expect(report.task.state).toBe('succeeded');
    const sent = JSON.parse(readFileSync(outbox, 'utf8')) as { messages: { channel: string; text: string }[] };
    expect(sent.messages).toHaveLength(1);
    expect(sent.messages[0]).toMatchObject({ channel: '#ops', text: STATUS_TEXT });
  }, 120_000);
});
