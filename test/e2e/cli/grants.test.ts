import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Grant } from '../../../electron/contract/index.js';
import { CliSandbox, examplePlaybook, explain } from '../../support/cliSandbox.js';
import { startServe } from '../../support/serveProcess.js';

let cli: CliSandbox;
beforeEach(() => {
  cli = new CliSandbox();
});
afterEach(async () => {
  await cli.cleanup();
});

/** Runs cleanup-old-logs to its end or its approval; returns the exit code and the run report. */
async function cleanup(): Promise<{ code: number | null; approvals: { id: string }[] }> {
  const result = await cli.run(['run', examplePlaybook('cleanup-old-logs.yaml'), '--json']);
  return { code: result.code, approvals: (result.json() as { approvals: { id: string }[] }).approvals };
}

describe('agent-desk grants', () => {
  it('lists an "always" approval, and after revoke the same delete asks again', async () => {
    const first = await cleanup();
    expect(first.code).toBe(3);
    const approved = await cli.run(['approvals', 'approve', first.approvals[0]!.id, '--remember', 'always']);
    expect(approved.code, explain(approved)).toBe(0);
    expect((await cleanup()).code).toBe(0); // remembered: not asked

    const listed = await cli.run(['grants', 'list', '--json']);
    expect(listed.code, explain(listed)).toBe(0);
    const [grant, ...rest] = listed.json<{ grants: Grant[] }>().grants;
    expect(rest).toEqual([]);
    expect(grant).toMatchObject({ tool: 'fs.delete', scope: 'always', approvalId: first.approvals[0]!.id });
    expect((await cli.run(['grants', 'list'])).stdout).toContain(grant!.id);

    const revoked = await cli.run(['grants', 'revoke', grant!.id]);
    expect(revoked.code, explain(revoked)).toBe(0);
    expect(revoked.stdout).toContain('asks again');
    expect((await cleanup()).code).toBe(3);
  });

  it('revoking an unknown grant is not_found with a hint, not a stack trace', async () => {
    const result = await cli.run(['grants', 'revoke', 'grt_nope', '--json']);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('not_found');
    expect(result.stdout + result.stderr).toContain('grants.list');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('serve keeps its token across restarts until tokens rotate', async () => {
    const first = await startServe(cli);
    await first.child.kill('SIGTERM');
    const second = await startServe(cli);
    expect(second.info.token).toBe(first.info.token);
    await second.child.kill('SIGTERM');
    const rotated = await cli.run(['tokens', 'rotate', '--json']);
    expect(rotated.code, explain(rotated)).toBe(0);
    const third = await startServe(cli);
    expect(third.info.token).toBe(rotated.json<{ token: string }>().token);
    expect(third.info.token).not.toBe(first.info.token);
  });
});
