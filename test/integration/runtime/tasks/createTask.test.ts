import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../../electron/contract/index.js';
import { rejected } from '../../../support/errors.js';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

// Every way a task comes to exist goes through one service: these are its rules, whoever asks.

const PLAYBOOK = `name: budgeted
budget: { maxSteps: 7, maxCostUsd: 2 }
inputs:
  who: { type: string, default: world }
  token: { type: string, secret: true }
steps:
  - tool: echo
    args: { value: "hi \${inputs.who}" }
`;
const WITH_COMMAND = `name: runs-a-command
steps:
  - tool: echo
    args: { value: x }
acceptance:
  - { type: command_exit, command: [sh, -c, "true"] }
`;

describe('creating a task', () => {
  let h: TestRuntime;
  beforeEach(() => {
    h = openTestRuntime({ config: { budget: { maxSteps: 100, maxWallMs: 1000 } } });
  });
  afterEach(async () => h.cleanup());

  it('merges budgets in one order: config, agent, playbook, the caller', async () => {
    await h.rt.agents.create({ name: 'ops', budget: { maxSteps: 50, maxWallMs: 2000, maxTokens: 999 } });
    const built = await h.rt.tasks.build({
      source: { kind: 'playbook', source: PLAYBOOK, baseDir: h.home },
      requester: { kind: 'local' },
      inputs: { token: 's3cr3t-value' },
      agent: 'ops',
      budget: { maxCostUsd: 1 },
    });
    expect(built.spec.budget).toEqual({ maxSteps: 7, maxWallMs: 2000, maxTokens: 999, maxCostUsd: 1 });
    expect(built.secrets).toEqual({ token: 's3cr3t-value' });
    expect(built.spec.inputs).toEqual({ who: 'world' });
  });

  it('hands the engine the playbook it parsed, so the plan does not parse it again', async () => {
    const built = await h.rt.tasks.build({
      source: { kind: 'playbook', source: PLAYBOOK, baseDir: h.home },
      requester: { kind: 'local' },
      inputs: { token: 'x' },
    });
    expect(built.spec.playbook?.name).toBe('budgeted');
  });

  it('refuses a command check or services from a client without operator.admin, and lets an admin or the local operator', async () => {
    const writer = { kind: 'client' as const, scopes: ['operator.read' as const, 'operator.write' as const], method: 'tasks.create' };
    const playbook = { kind: 'playbook' as const, source: WITH_COMMAND, baseDir: h.home };
    const commandCheck = { type: 'command_exit' as const, command: ['true'], exitCode: 0, timeoutMs: 1000 };
    expect((await rejected(h.rt.tasks.create({ source: playbook, requester: writer }))).code).toBe('forbidden');
    expect(
      (await rejected(h.rt.tasks.create({ source: { kind: 'goal', goal: 'g', checks: [commandCheck] }, requester: writer }))).code,
    ).toBe('forbidden');
    const admin = { kind: 'client' as const, scopes: ALL_SCOPES, method: 'tasks.create' };
    expect((await h.rt.tasks.create({ source: playbook, requester: admin })).task.state).toBe('queued');
    expect((await h.rt.tasks.create({ source: playbook, requester: { kind: 'local' } })).task.state).toBe('queued');
  });

  it('refuses a playbook with secret inputs where nobody can give them', async () => {
    const source = { kind: 'playbook' as const, source: PLAYBOOK, baseDir: h.home };
    expect((await rejected(h.rt.tasks.create({ source, requester: { kind: 'local' }, unattended: 'a cron job' }))).code).toBe(
      'invalid_params',
    );
    expect(await h.rt.store.tasks.list({ limit: 10 })).toEqual([]);
  });

  it('delegation: a model-written child playbook may not carry a command check', async () => {
    await h.rt.agents.create({ name: 'helper' });
    const delegate = h.rt.registry.get('agents.delegate');
    expect(delegate, 'the delegate tool is registered').toBeDefined();
    const parent = (
      await h.rt.tasks.create({
        source: { kind: 'playbook', source: WITH_COMMAND, baseDir: h.home },
        requester: { kind: 'local' },
      })
    ).task;
    const ctx = {
      taskId: parent.id,
      stepId: 'stp_1',
      workspace: parent.workspace,
      idempotencyKey: `${parent.id}:0`,
      signal: new AbortController().signal,
    };
    await expect(
      delegate!.execute(delegate!.input.parse({ children: [{ agent: 'helper', playbook: WITH_COMMAND }] }), ctx as never),
    ).rejects.toThrow(/command_exit/);
  });
});
