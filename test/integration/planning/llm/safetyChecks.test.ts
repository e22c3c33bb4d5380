import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { desktopModule } from '../../../../electron/capabilities/gui/desktopModule.js';
import { ALL_SCOPES, type Approval } from '../../../../electron/contract/index.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { OpenAiResponsesProvider } from '../../../../electron/runtime/models/openaiResponses.js';
import { withLlmGoals } from '../../../../electron/runtime/planning/llm/goalPlans.js';
import { chooseModelSpace } from '../../../../electron/runtime/gui/coordinates.js';
import { TEST_PRICES } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { missing } from '../../../support/requirements.js';
import { openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { desktopImage } from '../../../support/sandboxImage.js';

const CHECK = { id: 'sc_1', code: 'malicious_instructions', message: 'The page asks to transfer money.' };
/** A right click on the bare desktop opens the window manager's menu: a click that changes nothing would be no_effect. */
const CLICK = { type: 'click', x: 640, y: 400, button: 'right' };
const operator: CallContext = { scopes: ALL_SCOPES.filter((s) => s !== 'operator.secrets'), clientId: 'ws:alice' };

type Item = { type?: string; call_id?: string; acknowledged_safety_checks?: unknown };
const skip = missing('docker');

describe.skipIf(skip)(
  `OpenAI Responses safety checks become approvals (real SDK, wire-protocol server, the real computer tool)${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let server: ModelServer;
    let h: TestRuntime;
    let image: string;
    beforeAll(async () => void (image = await desktopImage()), 600_000);
    beforeEach(async () => {
      server = await new ModelServer().start();
      const provider = new OpenAiResponsesProvider({ model: 'computer-use-preview', baseURL: server.url, apiKey: 'sk-test' });
      h = openTestRuntime({
        modules: (core) => [
          desktopModule(core, { image }),
          {
            name: 'computer-use model',
            plans: withLlmGoals({
              registry: core.registry,
              provider: () => provider,
              acceptance: () => [],
              prices: TEST_PRICES,
              computer: (task) => (task.sandbox === 'desktop' ? chooseModelSpace({ width: 1280, height: 800 }) : undefined),
            }),
          },
        ],
      });
    });
    afterEach(async () => {
      await h.cleanup();
      await server.close();
    });

    const createDesktopTask = (goal: string) =>
      h.rt.engine.create({ title: goal, plan: { kind: 'goal', goal }, inputs: {}, sandbox: 'desktop' });
    /** What the real computer tool did: the screen point of each click it performed. */
    const performed = async (taskId: string) =>
      (await h.rt.engine.steps(taskId))
        .filter((s) => s.tool === 'computer' && s.status === 'completed')
        .map((s) => (s.output as { screenPoint?: unknown }).screenPoint);

    const call = async (method: string, params: unknown) =>
      (await h.rt.dispatcher.dispatch({ id: 1, method, params }, operator)) as unknown as { result: never; error?: unknown };

    /** Runs until the flagged click waits for a person; returns the task id and the approval. */
    async function runToApproval(): Promise<{ taskId: string; approval: Approval }> {
      server.script('responses', { computer: [{ id: 'cu_1', action: CLICK, safetyChecks: [CHECK] }] });
      const task = await createDesktopTask('Pay the invoice on the open page');
      const waiting = await h.rt.engine.run(task.id, { detachOnApproval: true });
      expect(waiting.state).toBe('waiting_approval');
      expect(await performed(task.id)).toEqual([]);
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
      expect(await performed(taskId)).toEqual([{ x: 640, y: 400 }]);
      const [first, second] = server.received('responses').map((r) => r.body.input as Item[]);
      expect(first!.some((item) => item.acknowledged_safety_checks !== undefined)).toBe(false);
      // The second run rebuilt the conversation from the step records (new call ids, same checks).
      const computerCall = second!.find((item) => item.type === 'computer_call')!;
      const output = second!.find((item) => item.type === 'computer_call_output')!;
      expect(output).toMatchObject({ call_id: computerCall.call_id, acknowledged_safety_checks: [CHECK] });
    });

    it('acknowledges under the original call id when the run waits for the decision', async () => {
      server.script('responses', { computer: [{ id: 'cu_1', action: CLICK, safetyChecks: [CHECK] }] }, { text: 'Paid.' });
      const task = await createDesktopTask('Pay the invoice on the open page');
      const running = h.rt.engine.run(task.id);
      await waitForState(h.rt, task.id, ['waiting_approval']);
      const [approval] = await h.rt.approvals.list({ taskId: task.id, status: 'pending' });
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
      expect(await performed(taskId)).toEqual([]);
      expect(server.received('responses')).toHaveLength(1);
      expect((await h.rt.engine.steps(taskId))[0]).toMatchObject({ tool: 'computer', status: 'denied' });
    });
  },
);
