import { describe, expect, it } from 'vitest';
import type { Step, StepStatus, Task } from '../../../../../electron/contract/index.js';
import type { PlannerState } from '../../../../../electron/runtime/planning/planner.js';
import { parsePlaybook } from '../../../../../electron/runtime/planning/playbook/parse.js';
import { PlaybookPlanner, resolveAcceptance, scopeFromState } from '../../../../../electron/runtime/planning/playbook/planner.js';

const playbook = parsePlaybook(`
name: inventory
inputs:
  city: { required: true }
  format: { default: csv }
services:
  - { name: api, command: [node, api.js] }
steps:
  - id: fetch
    title: Fetch \${inputs.city}
    tool: http.get
    args: { url: "\${services.api.url}/stock?city=\${inputs.city}" }
    expect: [{ path: $.status, equals: 200 }]
  - id: count
    capability: data.count
    args: { rows: "\${steps.fetch.output.body.items}", first: "\${steps.fetch.output.body.items[0].sku}" }
    retries: 2
  - tool: fs.write
    args:
      path: "\${workspace}/reports/\${task.id}.\${inputs.format}"
      content: "total=\${steps.count.output.total}"
acceptance:
  - { type: file_exists, path: "reports/\${task.id}.\${inputs.format}" }
  - { type: http_status, url: "\${services.api.url}/health" }
`);

const task: Task = {
  id: 'T42',
  title: 'inventory',
  state: 'running',
  plan: { kind: 'playbook', source: '', baseDir: '/pb' },
  inputs: { city: 'Oslo' },
  workspace: '/ws/T42',
  budget: { maxSteps: 10, maxTokens: 1000, maxCostUsd: 1, maxWallMs: 60_000 },
  usage: { steps: 0, modelCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0 },
  checks: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

function recorded(index: number, attempt: number, status: StepStatus, output?: unknown): Step {
  const planStepId = ['fetch', 'count', 'step3'][index];
  return {
    id: `S${index}-${attempt}`,
    taskId: task.id,
    index,
    attempt,
    planStepId,
    tool: 'x',
    args: {},
    status,
    idempotencyKey: `${task.id}:${index}:${attempt}`,
    readOnly: false,
    idempotent: false,
    output,
    tokens: 0,
    costUsd: 0,
    startedAt: task.createdAt,
  };
}

function stateWith(steps: Step[]): PlannerState {
  return { task, steps, inputs: { city: 'Oslo' }, env: { services: { api: { url: 'http://127.0.0.1:4100' } } } };
}

const fetched = { status: 200, body: { items: [{ sku: 'A1' }, { sku: 'B2' }] } };
const signal = new AbortController().signal;

describe('PlaybookPlanner', () => {
  const planner = new PlaybookPlanner(playbook);

  it('starts with the first step, templates resolved', async () => {
    expect(await planner.next(stateWith([]), signal)).toEqual({
      type: 'call',
      index: 0,
      planStepId: 'fetch',
      title: 'Fetch Oslo',
      tool: 'http.get',
      args: { url: 'http://127.0.0.1:4100/stock?city=Oslo' },
      expect: [{ path: '$.status', equals: 200 }],
      retries: 0,
    });
  });

  it('moves past completed steps and feeds their outputs into later args with their types', async () => {
    const decision = await planner.next(stateWith([recorded(0, 1, 'completed', fetched)]), signal);
    expect(decision).toMatchObject({
      type: 'call',
      index: 1,
      planStepId: 'count',
      capability: 'data.count',
      args: { rows: [{ sku: 'A1' }, { sku: 'B2' }], first: 'A1' },
      retries: 2,
    });
    expect(decision).not.toHaveProperty('tool');
  });

  it('repeats a step whose latest attempt failed, and uses the latest attempt of each step', async () => {
    const steps = [
      recorded(0, 1, 'failed'),
      recorded(0, 2, 'completed', fetched),
      recorded(1, 1, 'completed', { total: 1 }),
      recorded(1, 2, 'uncertain'),
    ];
    expect(await planner.next(stateWith(steps), signal)).toMatchObject({ type: 'call', index: 1 });
  });

  it('gives a step its default id and skipped steps count as done', async () => {
    const steps = [recorded(0, 1, 'completed', fetched), recorded(1, 1, 'completed', { total: 7 })];
    expect(await planner.next(stateWith(steps), signal)).toMatchObject({
      index: 2,
      planStepId: 'step3',
      args: { path: '/ws/T42/reports/T42.csv', content: 'total=7' },
    });
    const withSkip = [...steps, recorded(2, 1, 'skipped')];
    expect(await planner.next(stateWith(withSkip), signal)).toEqual({ type: 'done' });
  });

  it('is done when every step completed', async () => {
    const steps = [
      recorded(0, 1, 'completed', fetched),
      recorded(1, 1, 'completed', { total: 7 }),
      recorded(2, 1, 'completed', { written: true }),
    ];
    expect(await planner.next(stateWith(steps), signal)).toEqual({ type: 'done' });
  });

  it('fails with the reference when a needed output is missing', async () => {
    const steps = [recorded(0, 1, 'skipped')];
    const decision = await planner.next(stateWith(steps), signal);
    expect(decision.type).toBe('fail');
    expect(decision).toMatchObject({ reason: expect.stringContaining('unresolved reference ${steps.fetch.output.body.items}') });
  });

  it('gives the same decision for the same recorded state, whatever the record order', async () => {
    const steps = [recorded(1, 1, 'failed'), recorded(0, 2, 'completed', fetched), recorded(0, 1, 'failed')];
    const first = await planner.next(stateWith(steps), signal);
    const again = await new PlaybookPlanner(playbook).next(stateWith([...steps].reverse()), signal);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ index: 1 });
  });
});

describe('resolveAcceptance', () => {
  it('resolves templates in checks and applies the check defaults', () => {
    const scope = scopeFromState(playbook, stateWith([]));
    expect(resolveAcceptance(playbook, scope)).toEqual([
      { type: 'file_exists', path: 'reports/T42.csv', exists: true },
      { type: 'http_status', url: 'http://127.0.0.1:4100/health', method: 'GET', status: 200, timeoutMs: 10_000 },
    ]);
  });

  it('rejects a check that becomes invalid after templates', () => {
    const pb = parsePlaybook(`
name: x
inputs: { n: { type: number, default: 5 } }
steps: [{ tool: fs.read, args: { path: a } }]
acceptance: [{ type: file_exists, path: "\${inputs.n}" }]
`);
    expect(() => resolveAcceptance(pb, scopeFromState(pb, stateWith([])))).toThrow(
      'acceptance[0] is invalid after templates:\nacceptance[0].path: expected string, got number',
    );
  });
});
