import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Task, type UserQuestion } from '../../../../electron/contract/index.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask, waitForState } from '../../../support/runtime.js';
import { stdioServer, useMcpRuntime } from './referenceServers.js';

const mcp = useMcpRuntime();

const owner: CallContext = { scopes: [...ALL_SCOPES], clientId: 'test' };

async function call<T>(method: string, params: unknown): Promise<T> {
  const response = (await mcp.harness.rt.dispatcher.dispatch({ id: 1, method, params }, owner)) as {
    result?: T;
    error?: { code: string; message: string; details?: unknown };
  };
  if (response.error) throw Object.assign(new Error(response.error.message), response.error);
  return response.result as T;
}

const ELICIT = `name: ask
steps:
  - tool: mcp__everything__trigger-elicitation-request
    args: {}
`;

/** server-everything (which registers its elicitation tool only for clients that advertise elicitation). */
async function everythingAsking(timeoutMs = 60_000): Promise<Task> {
  const { harness, manager } = mcp.open();
  await manager.add('everything', stdioServer('everything', [], { timeoutMs }));
  await pollUntil('the elicitation tool to be registered', () =>
    mcp.harness.rt.registry.get('mcp__everything__trigger-elicitation-request') ? true : undefined,
  );
  const task = await createPlaybookTask(mcp.harness.rt, ELICIT);
  await mcp.harness.rt.engine.start(task.id);
  // The tool is not read-only (a write by its annotations): it needs an approval first.
  await waitForState(mcp.harness.rt, task.id, ['waiting_approval']);
  const [approval] = await mcp.harness.rt.approvals.list({ status: 'pending' });
  await mcp.harness.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
  return waitForState(mcp.harness.rt, task.id, ['waiting_user', 'failed', 'succeeded']);
}

describe('MCP elicitation becomes a waiting_user prompt (server-everything over stdio)', () => {
  it("the server's question waits for tasks.respond; bad content is refused; the accepted answer goes back and the task continues", async () => {
    const waiting = await everythingAsking();
    const rt = mcp.harness.rt;
    expect(waiting.state, waiting.stateReason).toBe('waiting_user');
    expect(waiting.stateReason).toBe('MCP server "everything" asks: Please provide inputs for the following fields:');

    const asked = (await rt.trace.page(waiting.id, 0, 500)).events.find((e) => e.type === 'user.asked');
    expect(asked?.data).toMatchObject({
      tool: 'mcp__everything__trigger-elicitation-request',
      source: 'MCP server "everything"',
      requestedSchema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    });
    const { question } = await call<{ question: UserQuestion }>('tasks.question', { taskId: waiting.id });
    expect(question).toMatchObject({ taskId: waiting.id, message: 'Please provide inputs for the following fields:' });

    // The answer is checked against the requested schema before anything goes back.
    await expect(call('tasks.respond', { taskId: waiting.id, action: 'accept', content: { check: true } })).rejects.toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('content.name'),
    });
    await expect(call('tasks.respond', { taskId: waiting.id, action: 'maybe' })).rejects.toMatchObject({ code: 'invalid_params' });
    expect((await rt.engine.get(waiting.id)).state).toBe('waiting_user');

    const answered = await call<{ action: string }>('tasks.respond', {
      taskId: waiting.id,
      action: 'accept',
      content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' },
    });
    expect(answered.action).toBe('accept');
    const done = await waitForState(rt, waiting.id, ['succeeded', 'failed']);
    expect(done.state, done.stateReason).toBe('succeeded');
    const [step] = await rt.engine.steps(done.id);
    expect((step!.output as { text: string }).text).toContain('Ada Lovelace');
    const transitions = (await rt.trace.page(done.id, 0, 500)).events
      .filter((e) => e.type === 'task.transition')
      .map((e) => (e.data as { to: string }).to);
    expect(transitions).toEqual(['planning', 'running', 'waiting_approval', 'running', 'waiting_user', 'running', 'succeeded']);
    // The answer's values stay out of the trace: only the action and field names.
    const answeredEvent = (await rt.trace.page(done.id, 0, 500)).events.find((e) => e.type === 'user.answered');
    expect(answeredEvent?.data).toMatchObject({ action: 'accept', fields: expect.arrayContaining(['name', 'check', 'email']) });
    expect(JSON.stringify(answeredEvent?.data)).not.toContain('Ada');
    await expect(call('tasks.respond', { taskId: done.id, action: 'decline' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('a declined question goes back as a decline and the task continues', async () => {
    const waiting = await everythingAsking();
    expect(waiting.state).toBe('waiting_user');
    await call('tasks.respond', { taskId: waiting.id, action: 'decline' });
    const done = await waitForState(mcp.harness.rt, waiting.id, ['succeeded', 'failed']);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(((await mcp.harness.rt.engine.steps(done.id))[0]!.output as { text: string }).text).toContain('declined');
  });

  it("time the user takes to answer does not count against the call's timeout", async () => {
    const waiting = await everythingAsking(500);
    expect(waiting.state).toBe('waiting_user');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // three call timeouts pass while the user thinks
    expect((await mcp.harness.rt.engine.get(waiting.id)).state).toBe('waiting_user');
    await call('tasks.respond', { taskId: waiting.id, action: 'accept', content: { name: 'Grace' } });
    const done = await waitForState(mcp.harness.rt, waiting.id, ['succeeded', 'failed']);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(mcp.manager.connection('everything')?.state).toBe('connected');
  });

  it('cancelling a task that waits on a question withdraws it and cancels the task cleanly', async () => {
    const waiting = await everythingAsking();
    expect(waiting.state).toBe('waiting_user');
    await mcp.harness.rt.engine.cancel(waiting.id);
    const done = await waitForState(mcp.harness.rt, waiting.id, ['cancelled', 'failed', 'succeeded']);
    expect(done.state, done.stateReason).toBe('cancelled');
    expect((await call<{ question?: unknown }>('tasks.question', { taskId: waiting.id })).question).toBeUndefined();
    // The server is still usable afterwards.
    expect(mcp.manager.connection('everything')?.state).toBe('connected');
  });
});
