import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Scope } from '../../../../electron/contract/index.js';
import { AgentSpecSchema } from '../../../../electron/contract/index.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { AgentRepo } from '../../../../electron/runtime/store/agentRepo.js';
import { REPO_ROOT as ROOT } from '../../../support/cliSandbox.js';
import { waitForState, type TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const operator: CallContext = {
  scopes: ALL_SCOPES.filter((s) => s !== 'operator.secrets' && s !== 'operator.admin'),
  clientId: 'ws:alice',
};
const as = (scopes: Scope[]): CallContext => ({ scopes, clientId: 'ws:bob' });
const CLEANUP = readFileSync(path.join(ROOT, 'examples/playbooks/cleanup-old-logs.yaml'), 'utf8');
const INVENTORY = readFileSync(path.join(ROOT, 'examples/playbooks/inventory-report.yaml'), 'utf8');

async function call(method: string, params: unknown, ctx = operator, idempotencyKey?: string) {
  return h.rt.dispatcher.dispatch({ id: 1, method, params, ...(idempotencyKey && { idempotencyKey }) }, ctx);
}

describe.each(STORE_KINDS)('core RPC methods (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('a task created over RPC runs, waits for approval, is approved over RPC and succeeds', async () => {
    h = await openStoreTestRuntime(kind);
    const created = (await call('tasks.create', { playbook: { source: CLEANUP } })) as { result: { id: string } };
    const taskId = created.result.id;
    await waitForState(h.rt, taskId, ['waiting_approval']);
    const listed = (await call('approvals.list', { status: 'pending' })) as {
      result: { approvals: { id: string; preview: { summary: string } }[] };
    };
    expect(listed.result.approvals[0]!.preview.summary).toMatch(/^Delete logs\/app-2026-10\.log/);
    const decided = (await call('approvals.decide', { approvalId: listed.result.approvals[0]!.id, decision: 'approve' })) as {
      result: { status: string; decidedBy: string };
    };
    expect(decided.result).toMatchObject({ status: 'approved', decidedBy: 'ws:alice' });
    await waitForState(h.rt, taskId, ['succeeded']);
    const got = (await call('tasks.get', { taskId })) as { result: { task: { checks: { passed: boolean }[] }; steps: unknown[] } };
    expect(got.result.task.checks.map((c) => c.passed)).toEqual([true, true]);
    expect(got.result.steps).toHaveLength(4);
  });

  it('deciding needs operator.approvals; a read-only client is refused', async () => {
    h = await openStoreTestRuntime(kind);
    const response = await call('approvals.decide', { approvalId: 'apr_x', decision: 'approve' }, as(['operator.read']));
    expect(response).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('a playbook with services needs operator.admin over RPC, since it starts processes', async () => {
    h = await openStoreTestRuntime(kind);
    const params = { playbook: { source: INVENTORY, baseDir: path.join(ROOT, 'examples/playbooks') }, start: false };
    expect(await call('tasks.create', params)).toMatchObject({
      error: { code: 'forbidden', message: expect.stringContaining('operator.admin') },
    });
    expect(await call('tasks.create', params, as(['operator.admin']))).toMatchObject({ result: { state: 'queued' } });
  });

  it('the same idempotency key returns the first task instead of creating another', async () => {
    h = await openStoreTestRuntime(kind);
    const params = { playbook: { source: CLEANUP }, start: false };
    const first = (await call('tasks.create', params, operator, 'create-1')) as { result: { id: string } };
    const again = (await call('tasks.create', params, operator, 'create-1')) as { result: { id: string } };
    expect(again.result.id).toBe(first.result.id);
    expect(await h.rt.store.tasks.list({ limit: 10 })).toHaveLength(1);
    expect(await call('tasks.create', { ...params, title: 'other' }, operator, 'create-1')).toMatchObject({ error: { code: 'conflict' } });
  });

  it('an invalid playbook over RPC is a typed error listing each problem', async () => {
    h = await openStoreTestRuntime(kind);
    const response = (await call('tasks.create', { playbook: { source: 'name: x\nsteps:\n  - tool: fs.write\n    args: {}\n' } })) as {
      error: { code: string; details: { issues: { path: string }[] } };
    };
    expect(response.error.code).toBe('invalid_playbook');
    expect(response.error.details.issues.map((i) => i.path)).toEqual(['steps[0].args.path', 'steps[0].args.content']);
  });

  it('traces.get pages after a sequence number', async () => {
    h = await openStoreTestRuntime(kind);
    const created = (await call('tasks.create', { playbook: { source: 'name: t\nsteps:\n  - { tool: echo, args: { value: 1 } }\n' } })) as {
      result: { id: string };
    };
    await waitForState(h.rt, created.result.id, ['succeeded']);
    const seqs: number[] = [];
    let afterSeq = 0;
    for (;;) {
      const page = (await call('traces.get', { taskId: created.result.id, afterSeq, limit: 2 })) as {
        result: { events: { seq: number }[]; nextSeq?: number };
      };
      seqs.push(...page.result.events.map((e) => e.seq));
      if (page.result.nextSeq === undefined) break;
      afterSeq = page.result.nextSeq;
    }
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(seqs.length).toBeGreaterThanOrEqual(5);
  });

  it('tools.catalog lists the built-in and feature tools with tier, risk and availability', async () => {
    h = await openStoreTestRuntime(kind);
    const response = (await call('tools.catalog', {})) as {
      result: { tools: { name: string; tier: string; risk: string; availability: { available: boolean } }[] };
    };
    const byName = Object.fromEntries(response.result.tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'agents.delegate',
      'echo',
      'fs.delete',
      'fs.list',
      'fs.read',
      'fs.write',
      'http.request',
      'memory.save',
      'memory.search',
      'skills.read',
    ]);
    expect(byName['fs.delete']).toMatchObject({ tier: 'api', risk: 'delete', availability: { available: true } });
  });
  it('tasks.create takes exactly one of playbook and goal, refuses an unknown agent and keeps the task options', async () => {
    h = await openStoreTestRuntime(kind);
    const playbook = { source: CLEANUP };
    expect(await call('tasks.create', { playbook, goal: 'tidy up', start: false })).toMatchObject({
      error: { code: 'invalid_params', message: expect.stringContaining('exactly one of playbook and goal') },
    });
    expect(await call('tasks.create', { start: false })).toMatchObject({ error: { code: 'invalid_params' } });
    expect(await call('tasks.create', { playbook, agent: 'ghost', start: false })).toMatchObject({
      error: { code: 'not_found', message: expect.stringContaining('ghost') },
    });
    const at = '2026-11-30T00:00:00.000Z';
    await new AgentRepo(h.rt.store.sql).save({ ...AgentSpecSchema.parse({ name: 'janitor' }), createdAt: at, updatedAt: at });
    const created = (await call('tasks.create', { playbook, agent: 'janitor', sandbox: 'none', start: false })) as {
      result: { id: string };
    };
    const got = (await call('tasks.get', { taskId: created.result.id })) as { result: { task: Record<string, unknown> } };
    expect(got.result.task).toMatchObject({ agent: 'janitor', sandbox: 'none' });
    expect(await new AgentRepo(h.rt.store.sql).agentOf(created.result.id)).toBe('janitor');
  });
});
