import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../../../electron/contract/index.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { startServer } from '../../../unit/runtime/verify/checkFixtures.js';
import { openTestRuntime, tempDir, waitForState, type TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime | undefined;
let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const writer: CallContext = { scopes: ['operator.read', 'operator.write'], clientId: 'ws:writer' };
const admin: CallContext = { scopes: ['operator.admin'], clientId: 'ws:admin' };
const call = (method: string, params: unknown, ctx: CallContext) => h!.rt.dispatcher.dispatch({ id: 1, method, params }, ctx);

/** A folder outside every workspace where an escaped command would leave its mark. */
function markerFile(): string {
  const dir = tempDir('agent-desk-marker-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'ran-as-host-command');
}

const commandPlaybook = (marker: string) => `
name: innocent-report
steps:
  - { id: write, tool: fs.write, args: { path: report.txt, content: done } }
acceptance:
  - type: command_exit
    name: report is fine
    command: ${JSON.stringify(['node', '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned')`])}
`;

const playbookWithChecks = (checks: string) => `
name: checked
steps:
  - { id: write, tool: fs.write, args: { path: report.txt, content: done } }
acceptance:
${checks}
`;

async function runPlaybook(source: string, ctx: CallContext = admin) {
  const created = (await call('tasks.create', { playbook: { source } }, ctx)) as { result?: { id: string }; error?: unknown };
  if (!created.result) throw new Error(`tasks.create failed: ${JSON.stringify(created.error)}`);
  return waitForState(h!.rt, created.result.id, ['succeeded', 'failed']);
}

describe('command_exit checks need operator.admin', () => {
  it('a write-only client cannot run a host command through a playbook check (the command never runs)', async () => {
    h = openTestRuntime();
    const marker = markerFile();
    const response = await call('tasks.create', { playbook: { source: commandPlaybook(marker) } }, writer);
    expect(response).toMatchObject({
      error: { code: 'forbidden', message: expect.stringContaining('"report is fine" is command_exit') },
    });
    await h.rt.engine.idle();
    expect(existsSync(marker)).toBe(false);
    expect(await h.rt.store.tasks.list({ limit: 10 })).toHaveLength(0);
  });

  it('an admin may carry one: the check runs', async () => {
    h = openTestRuntime();
    const marker = markerFile();
    expect((await runPlaybook(commandPlaybook(marker), admin)).state).toBe('succeeded');
    expect(existsSync(marker)).toBe(true);
  });

  it('a goal task with a command check from a write-only client is refused', async () => {
    h = openTestRuntime();
    const checks = [{ type: 'command_exit', name: 'tests pass', command: ['true'] }];
    expect(await call('tasks.create', { goal: 'make the tests pass', checks, start: false }, writer)).toMatchObject({
      error: { code: 'forbidden', details: { checks: ['tests pass'], required: 'operator.admin' } },
    });
    // An admin gets past the check gate: the task is created (its model is resolved when it runs).
    expect(await call('tasks.create', { goal: 'make the tests pass', checks, start: false }, admin)).toMatchObject({
      result: { state: 'queued', plan: { acceptance: [{ name: 'tests pass' }] } },
    });
  });

  it('a cron job cannot smuggle one in, as a goal or as a playbook', async () => {
    h = openTestRuntime({});
    const marker = markerFile();
    const job = (target: unknown) => ({ name: 'nightly', schedule: '0 2 * * *', target });
    const asPlaybook = await call('cron.add', job({ kind: 'playbook', source: commandPlaybook(marker) }), writer);
    expect(asPlaybook).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('command_exit') } });
    const checks = [{ type: 'command_exit', command: ['true'] }];
    const asGoal = await call('cron.add', job({ kind: 'goal', goal: 'do it', checks }), writer);
    expect(asGoal).toMatchObject({ error: { code: 'forbidden' } });
    expect(await call('cron.add', job({ kind: 'goal', goal: 'do it', checks }), admin)).toHaveProperty('result');
  });
});

describe('URL checks are external_http under the task allowlist', () => {
  it('a check URL outside the allowlist is refused and never fetched', async () => {
    let hits = 0;
    const api = await startServer((_req, res) => void (hits++, res.end('ok')));
    cleanups.push(() => api.close());
    h = openTestRuntime();
    const task = await runPlaybook(playbookWithChecks(`  - { type: http_status, url: "${api.url}/health" }`));
    expect(task.state).toBe('failed');
    expect(task.checks[0]!.output).toMatch(/^not fetched: external_http to 127\.0\.0\.1:\d+ is outside the task's allowlist/);
    expect(hits).toBe(0);
  });

  it('an allowlisted URL is fetched; a redirect to another port is refused at that hop', async () => {
    let elsewhereHits = 0;
    const elsewhere = await startServer((_req, res) => void (elsewhereHits++, res.end('{"ok":true}')));
    const allowed = await startServer((req, res) => {
      if (req.url === '/health') return res.end('ok');
      res.writeHead(302, { location: `${elsewhere.url}/data` }).end();
    });
    cleanups.push(
      () => allowed.close(),
      () => elsewhere.close(),
    );
    h = openTestRuntime({ config: { policy: { networkAllow: [new URL(allowed.url).host] } } });
    const ok = await runPlaybook(playbookWithChecks(`  - { type: http_status, url: "${allowed.url}/health" }`));
    expect(ok.state).toBe('succeeded');
    const bounced = await runPlaybook(
      playbookWithChecks(
        `  - { type: http_status, url: "${allowed.url}/go" }\n  - { type: json_path, url: "${allowed.url}/go", path: $.ok }`,
      ),
    );
    expect(bounced.state).toBe('failed');
    for (const result of bounced.checks)
      expect(result.output).toMatch(/^not fetched: redirected to http:\/\/127\.0\.0\.1:\d+\/data: external_http/);
    expect(elsewhereHits).toBe(0);
  });
});

describe('file checks stay inside the workspace', () => {
  it('absolute paths, .. and a real symlink out of the workspace are refused', async () => {
    const outside = tempDir('agent-desk-outside-');
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(path.join(outside, 'secret.txt'), 'hunter2');
    h = openTestRuntime();
    const workspace = path.join(h.home, 'ws');
    mkdirSync(workspace, { recursive: true });
    symlinkSync(outside, path.join(workspace, 'link'));
    const source = playbookWithChecks(
      [
        `  - { type: file_contains, path: ${JSON.stringify(path.join(outside, 'secret.txt'))}, text: hunter2 }`,
        `  - { type: file_exists, path: ../../${path.basename(outside)}/secret.txt }`,
        `  - { type: file_contains, path: link/secret.txt, text: hunter2 }`,
        `  - { type: file_exists, path: link/absent.txt, exists: false }`,
        `  - { type: file_exists, path: report.txt }`,
      ].join('\n'),
    );
    const created = (await call('tasks.create', { playbook: { source }, workspace }, admin)) as { result: { id: string } };
    const task = await waitForState(h.rt, created.result.id, ['succeeded', 'failed']);
    expect(task.checks.map((c) => c.passed)).toEqual([false, false, false, false, true]);
    expect(task.checks[0]!.output).toMatch(/^refused: .* is an absolute path/);
    expect(task.checks[1]!.output).toMatch(/^refused: .* climbs out with "\.\."/);
    expect(task.checks[2]!.output).toMatch(/^refused: link\/secret\.txt leads outside the task workspace/);
    expect(task.checks[3]!.output).toMatch(/^refused: link\/absent\.txt leads outside/);
    expect(JSON.stringify(task.checks)).not.toContain('hunter2 found');
  });
});

describe('sandbox checks without a desktop', () => {
  it('sandbox: true fails with a clear reason instead of running the command on the host', async () => {
    h = openTestRuntime();
    const marker = markerFile();
    const source = playbookWithChecks(
      `  - type: command_exit\n    sandbox: true\n    command: ${JSON.stringify(['node', '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`])}`,
    );
    const task = await runPlaybook(source);
    expect(task.state).toBe('failed');
    expect(task.checks[0]!.output).toMatch(/^not run: this check says sandbox: true, but this runtime has no desktop sandbox wired/);
    expect(existsSync(marker)).toBe(false);
  });
});

// Keep the scope list honest: a write client is exactly what the attack used.
const _writerScopes: Scope[] = [...writer.scopes];
void _writerScopes;
