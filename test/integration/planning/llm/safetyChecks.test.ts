import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_SCOPES, type Approval } from '../../../../electron/contract/index.js';
import type { AgentRuntime } from '../../../../electron/runtime/agentRuntime.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { OpenAiResponsesProvider } from '../../../../electron/runtime/models/openaiResponses.js';
import { withLlmGoals } from '../../../../electron/runtime/planning/llm/goalPlans.js';
import type { AnyTool } from '../../../../electron/runtime/tools/types.js';
import { createGoalTask, TEST_PRICES } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';

const CHECK = { id: 'sc_1', code: 'malicious_instructions', message: 'The page asks to transfer money.' };
const CLICK = { type: 'click', x: 10, y: 20, button: 'left' };
const operator: CallContext = { scopes: ALL_SCOPES.filter((s) => s !== 'operator.secrets'), clientId: 'ws:alice' };

type Item = { type?: string; call_id?: string; acknowledged_safety_checks?: unknown };

/** A real tool under the computer-use tool's name: records the actions it performed. */
function computerTool(performed: unknown[]): AnyTool {
  return {
    name: 'computer',
    title: 'computer',
    description: 'test screen',
    tier: 'api',
    capabilities: ['gui.act'],
    risk: 'write',
    readOnly: false,
    idempotent: false,
    input: z.object({ type: z.string() }).passthrough(),
    classify: (args: { type: string }) => ({
      risks: ['write'],
      subject: args.type,
      readOnly: false,
      idempotent: false,
      insideWorkspace: true,
      preview: { summary: `${args.type} on the test screen` },
    }),
    availability: () => ({ available: true }),
    execute: async (args) => {
      performed.push(args);
      return { screenshot: { mediaType: 'image/png', data: 'iVBORw0KGgo=' } };
    },
  };
}

describe('OpenAI Responses safety checks become approvals (real SDK, wire-protocol server)', () => {
  let server: ModelServer;
  let h: TestRuntime;
  let performed: unknown[];
  beforeEach(async () => {
    server = await new ModelServer().start();
    performed = [];
    let runtime: AgentRuntime | undefined;
    const provider = new OpenAiResponsesProvider({ model: 'gpt-test', baseURL: server.url, apiKey: 'sk-test' });
    h = openTestRuntime({
      tools: [computerTool(performed)],
      plans: withLlmGoals({ registry: () => runtime!.registry, provider: () => provider, acceptance: () => [], prices: TEST_PRICES }),
    });
    runtime = h.rt;
  });
  afterEach(async () => {
    await h.cleanup();
    await server.close();
  });

  const call = async (method: string, params: unknown) =>
    (await h.rt.dispatcher.dispatch({ id: 1, method, params }, operator)) as unknown as { result: never; error?: unknown };

  /** Runs until the flagged click waits for a person; returns the task id and the approval. */
  async function runToApproval(): Promise<{ taskId: string; approval: Approval }> {
    server.script('responses', { computer: [{ id: 'cu_1', action: CLICK, safetyChecks: [CHECK] }] });
    const task = createGoalTask(h.rt, 'Pay the invoice on the open page');
    const waiting = await h.rt.engine.run(task.id, { detachOnApproval: true });
    expect(waiting.state).toBe('waiting_approval');
    expect(performed).toEqual([]);
    const listed = (await call('approvals.list', { status: 'pending' })) as { result: { approvals: Approval[] } };
    expect(listed.result.approvals).toHaveLength(1);
    return { taskId: task.id, approval: listed.result.approvals[0]! };
  }

  it('asks before a flagged action and acknowledges the check in the next request once approved', async () => {
    const { taskId, approval } = await runToApproval();
    // Without the flag the gate would allow a write inside the workspace: the check made it ask.
    expect(approval).toMatchObject({ tool: 'computer', rememberable: false });
    expect(approval.reason).toContain('malicious_instructions: The page asks to transfer money.');
    expect(approval.preview.summary).toContain('The page asks to transfer money.');
    expect((await call('approvals.decide', { approvalId: approval.id, decision: 'approve' })).error).toBeUndefined();

    server.script('responses', { text: 'Paid.' });
    const done = await h.rt.engine.run(taskId, { detachOnApproval: true });
    expect(done.state).toBe('succeeded');
    expect(performed).toEqual([CLICK]);
    const [first, second] = server.received('responses').map((r) => r.body.input as Item[]);
    expect(first!.some((item) => item.acknowledged_safety_checks !== undefined)).toBe(false);
    // The second run rebuilt the conversation from the step records (new call ids, same checks).
    const computerCall = second!.find((item) => item.type === 'computer_call')!;
    const output = second!.find((item) => item.type === 'computer_call_output')!;
    expect(output).toMatchObject({ call_id: computerCall.call_id, acknowledged_safety_checks: [CHECK] });
  });

  it('acknowledges under the original call id when the run waits for the decision', async () => {
    server.script('responses', { computer: [{ id: 'cu_1', action: CLICK, safetyChecks: [CHECK] }] }, { text: 'Paid.' });
    const task = createGoalTask(h.rt, 'Pay the invoice on the open page');
    const running = h.rt.engine.run(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const [approval] = h.rt.approvals.list({ taskId: task.id, status: 'pending' });
    await call('approvals.decide', { approvalId: approval!.id, decision: 'approve' });
    expect((await running).state).toBe('succeeded');
    const second = server.received('responses')[1]!.body.input as Item[];
    expect(second.find((item) => item.type === 'computer_call_output')).toMatchObject({
      call_id: 'cu_1',
      acknowledged_safety_checks: [CHECK],
    });
  });

  it('does not perform a denied action, makes no further request, and says why the task stopped', async () => {
    const { taskId, approval } = await runToApproval();
    await call('approvals.decide', { approvalId: approval.id, decision: 'deny', reason: 'not my invoice' });
    const done = await h.rt.engine.run(taskId, { detachOnApproval: true });
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('denied');
    expect(done.stateReason).toContain('not my invoice');
    expect(performed).toEqual([]);
    expect(server.received('responses')).toHaveLength(1);
    expect(h.rt.engine.steps(taskId)[0]).toMatchObject({ tool: 'computer', status: 'denied' });
  });
});
