import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { telemetryWith, type TracerSetup } from '../../../../electron/capabilities/telemetry/otelSdk.js';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { createPlaybookTask, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';

let h: TestRuntime | undefined;
let exporter: InMemorySpanExporter;
let setup: TracerSetup;
afterEach(async () => {
  await h?.cleanup();
  await setup?.provider.shutdown();
});

function withTelemetry(options: Parameters<typeof openTestRuntime>[0] = {}): Runtime {
  exporter = new InMemorySpanExporter();
  setup = telemetryWith(exporter, 'test', false);
  h = openTestRuntime({ ...options, telemetry: setup.options });
  return h.rt;
}

async function exported(): Promise<ReadableSpan[]> {
  await setup.provider.forceFlush();
  return exporter.getFinishedSpans();
}

const op = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.attributes['gen_ai.operation.name'] === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const ms = ([s, ns]: [number, number]) => s * 1000 + ns / 1e6;

describe('task spans (the runtime with the product SDK setup and an in-memory exporter)', () => {
  it('a step the policy denies is an execute_tool span in error with the decision; the failed task is an error too', async () => {
    const rt = withTelemetry({ config: { policy: { rules: { deny: ['fs.write(blocked/**)'], ask: [], allow: [] } } } });
    const task = await createPlaybookTask(
      rt,
      'name: p\nsteps:\n  - { tool: fs.write, args: { path: ok.txt, content: fine } }\n  - { tool: fs.write, args: { path: blocked/x.txt, content: no } }\n',
    );
    const done = await rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    const spans = await exported();
    const [agent] = op(spans, 'invoke_agent');
    expect(agent!.status).toMatchObject({ code: 2 });
    expect(agent!.attributes['agent_desk.task.kind']).toBe('playbook');
    const tools = op(spans, 'execute_tool');
    expect(tools.map((t) => [t.attributes['agent_desk.policy.effect'], t.attributes['agent_desk.step.status'], t.status.code])).toEqual([
      ['allow', 'completed', 1],
      ['deny', 'denied', 2],
    ]);
    expect(String(tools[1]!.attributes['agent_desk.policy.rule'])).toBe('fs.write(blocked/**)');
    for (const tool of tools) {
      expect(parentOf(tool)).toBe(agent!.spanContext().spanId);
      expect(ms(tool.startTime) >= ms(agent!.startTime) && ms(tool.endTime) <= ms(agent!.endTime)).toBe(true);
    }
  });

  it('a task left waiting for an approval when the runtime closes ends its spans, saying it waits', async () => {
    const rt = withTelemetry();
    const task = await createPlaybookTask(
      rt,
      'name: p\nsteps:\n  - { tool: fs.write, args: { path: a.txt, content: x } }\n  - { tool: fs.delete, args: { path: a.txt } }\n',
    );
    const waiting = await rt.engine.run(task.id, { detachOnApproval: true });
    expect(waiting.state).toBe('waiting_approval');
    await h!.rt.close();
    const spans = await exported();
    const [agent] = op(spans, 'invoke_agent');
    expect(agent!.attributes['agent_desk.task.state']).toBe('waiting_approval');
    const del = op(spans, 'execute_tool').find((s) => s.attributes['gen_ai.tool.name'] === 'fs.delete');
    expect(del!.attributes['agent_desk.step.status']).toBe('waiting_approval');
    expect(del!.events.map((e) => e.name)).toEqual(['agent_desk.approval.requested']);
  });

  it('news of a task no run holds here (paused in a new process) starts no span', async () => {
    const rt = withTelemetry();
    const task = await createPlaybookTask(
      rt,
      'name: p\nsteps:\n  - { tool: fs.write, args: { path: a.txt, content: x } }\n  - { tool: fs.delete, args: { path: a.txt } }\n',
    );
    expect((await rt.engine.run(task.id, { detachOnApproval: true })).state).toBe('waiting_approval');
    const again = await h!.reopen(); // the first process's spans end at its close
    expect((await again.engine.pause(task.id)).state).toBe('paused');
    await again.close();
    const agents = op(await exported(), 'invoke_agent');
    expect(agents.map((a) => a.attributes['agent_desk.task.state'])).toEqual(['waiting_approval']);
  });

  it('a sub-agent’s task is a child of the delegating execute_tool span, in the same trace', async () => {
    const child =
      'name: child\nsteps:\n  - { tool: fs.write, args: { path: out.txt, content: hi } }\nacceptance:\n  - { type: file_contains, path: out.txt, text: hi }\n';
    const planner = {
      kind: 'scripted-by-goal',
      next: (state: Parameters<ScriptedPlanner['next']>[0]) =>
        new ScriptedPlanner((turn) =>
          turn === 0 ? { tool: 'agents.delegate', args: { children: [{ agent: 'writer', playbook: child }] } } : 'done',
        ).next(state),
    };
    const rt = withTelemetry({ plans: withScriptedGoals(planner) });
    for (const name of ['lead', 'writer']) await rt.agents.create({ name, budget: { maxSteps: 20 } });
    const parent = await rt.engine.create({ title: 'lead', plan: { kind: 'goal', goal: 'lead' }, inputs: {} });
    await rt.agents.repo.assign(parent.id, 'lead');
    const done = await rt.engine.run(parent.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const spans = await exported();
    const agents = op(spans, 'invoke_agent');
    expect(agents.map((a) => a.name).sort()).toEqual(['invoke_agent lead', 'invoke_agent writer']);
    const lead = agents.find((a) => a.name === 'invoke_agent lead')!;
    const writer = agents.find((a) => a.name === 'invoke_agent writer')!;
    const delegate = op(spans, 'execute_tool').find((s) => s.attributes['gen_ai.tool.name'] === 'agents.delegate')!;
    expect(parentOf(delegate)).toBe(lead.spanContext().spanId);
    expect(parentOf(writer)).toBe(delegate.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([lead.spanContext().traceId]));
  });
});
