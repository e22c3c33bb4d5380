import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../electron/runtime/clock.js';
import { PLANNER_STATE_VERSION, storedPlannerState } from '../../../../electron/runtime/planning/llm/plannerState.js';
import { PlannerStateRepo } from '../../../../electron/runtime/store/plannerStateRepo.js';
import { rejected } from '../../../support/errors.js';
import { chatProvider, createGoalTask, openLlmRuntime } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';

type ChatMessage = { role: string; content?: string | { text?: string }[] | null; tool_call_id?: string; tool_calls?: { id: string }[] };

/** A chat message's text, whether sent as a string or as parts. */
const textOf = (m: ChatMessage | undefined): string =>
  typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p) => p.text ?? '').join('');

let server: ModelServer;
let h: TestRuntime | undefined;
beforeEach(async () => void (server = await new ModelServer().start()));
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  await server.close();
});

const messagesOf = (n: number): ChatMessage[] => server.received('chat')[n]!.body.messages as ChatMessage[];
const WRITE = { id: 'call_write_7f', name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } };

describe('one conversation per goal task, saved with its steps', () => {
  it('a task resumed by another runtime continues the same conversation: the model’s own call ids and text, the user’s message while paused, then the answer', async () => {
    server.script('chat', { text: 'First I write the file.', toolCalls: [WRITE] }, { hang: true });
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    const task = await createGoalTask(harness.rt, 'Write hello world into hello.txt');
    await harness.rt.engine.start(task.id);
    while (server.received('chat').length < 2) await new Promise((r) => setTimeout(r, 5));
    await harness.rt.engine.pause(task.id);
    expect((await waitForState(harness.rt, task.id, ['paused', 'failed'])).state).toBe('paused');
    await harness.rt.engine.message(task.id, 'Also say hi in your answer.');

    const rt = await harness.reopen(); // a new runtime on the same data folder, as after a restart
    server.script('chat', { text: 'Wrote hello.txt. Hi!' });
    const done = await rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(readFileSync(path.join(done.workspace, 'hello.txt'), 'utf8')).toBe('hello world');

    const resumed = messagesOf(2);
    const assistant = resumed.find((m) => m.role === 'assistant')!;
    expect(assistant.content).toBe('First I write the file.');
    expect(assistant.tool_calls?.map((c) => c.id)).toEqual(['call_write_7f']);
    expect(resumed.find((m) => m.role === 'tool')!.tool_call_id).toBe('call_write_7f');
    expect(JSON.stringify(resumed)).not.toContain('call_step_');
    expect(resumed.at(-1)!.role).toBe('user');
    expect(textOf(resumed.at(-1))).toContain('Also say hi in your answer.');

    expect(done.answer).toBe('Wrote hello.txt. Hi!');
    expect((await rt.engine.events(task.id)).map((e) => [e.kind, e.text])).toEqual([
      ['model.text', 'First I write the file.'],
      ['user.message', 'Also say hi in your answer.'],
      ['answer', 'Wrote hello.txt. Hi!'],
    ]);
  });

  it('a message sent mid-task reaches the next model request as a user turn, and stays in place after it', async () => {
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    let taskId = '';
    let said = false;
    // The person types while the first step runs: the message lands between two model requests.
    const speak = () => said || ((said = true), harness.rt.engine.message(taskId, 'Use blue, not red.'));
    harness.rt.registry.register(testTool({ name: 'paint', run: async () => (speak(), { painted: true }) }));
    server.script(
      'chat',
      { toolCalls: [{ id: 'call_paint_1', name: 'paint', arguments: { value: 'red' } }] },
      { toolCalls: [{ id: 'call_paint_2', name: 'paint', arguments: { value: 'blue' } }] },
      { text: 'Painted it blue.' },
    );
    taskId = (await createGoalTask(harness.rt, 'Paint the fence')).id;
    const done = await harness.rt.engine.run(taskId);
    expect(done.state, done.stateReason).toBe('succeeded');

    expect(JSON.stringify(messagesOf(0))).not.toContain('Use blue');
    const second = messagesOf(1);
    expect(second.at(-1)!.role).toBe('user');
    expect(textOf(second.at(-1))).toContain('Use blue, not red.');
    expect(second.at(-2)).toMatchObject({ role: 'tool', tool_call_id: 'call_paint_1' });
    // Later requests keep it where it was said: after the first result, before the turn that answered it.
    const third = messagesOf(2).map((m) => (m.role === 'user' ? `user:${textOf(m)}` : m.role));
    const at = third.findIndex((m) => m.includes('Use blue, not red.'));
    expect(third.slice(at - 2, at + 3)).toEqual(['assistant', 'tool', third[at], 'assistant', 'tool']);
    expect(third.filter((m) => m.includes('Use blue'))).toHaveLength(1);
  });

  it('a message no planner would read is refused with a typed error: to a finished task, to a playbook task', async () => {
    server.script('chat', { text: 'Done.' });
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    const goal = await createGoalTask(harness.rt, 'anything');
    expect((await harness.rt.engine.run(goal.id)).state).toBe('succeeded');
    await expect(harness.rt.engine.message(goal.id, 'too late')).rejects.toThrow(
      expect.objectContaining({ code: 'conflict', message: expect.stringContaining('already succeeded') }),
    );
    const playbook = await createPlaybookTask(harness.rt, 'name: p\nsteps:\n  - tool: fs.list\n    args: { path: . }\n');
    await expect(harness.rt.engine.message(playbook.id, 'hello')).rejects.toThrow(
      expect.objectContaining({ code: 'conflict', message: expect.stringContaining('runs a playbook') }),
    );
    expect((await harness.rt.engine.events(goal.id)).map((e) => e.kind)).toEqual(['answer']);
  });

  it('a turn saved just before a crash is not asked again: its queued calls run, and the model sees them under its own ids', async () => {
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    const task = await createGoalTask(harness.rt, 'Write hello world into hello.txt');
    // What the planner saved before the crash: the model's turn and its call, not yet a step.
    await storedPlannerState(harness.rt.store, task.id, systemClock).save({
      at: new Date().toISOString(),
      header: { queue: [{ index: 0, tool: 'fs.write', args: WRITE.arguments, onDeny: 'continue' }], inboxSeq: 0 },
      turns: [
        {
          role: 'assistant',
          text: 'Writing it.',
          calls: [{ id: WRITE.id, name: 'fs_write', argumentsText: JSON.stringify(WRITE.arguments), tool: 'fs.write', index: 0 }],
        },
      ],
      events: [],
    });
    const rt = await harness.reopen();
    server.script('chat', { text: 'Done.' });
    const done = await rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(readFileSync(path.join(done.workspace, 'hello.txt'), 'utf8')).toBe('hello world');
    expect(server.received('chat')).toHaveLength(1);
    expect((await rt.engine.steps(task.id)).map((s) => [s.index, s.tool, s.status])).toEqual([[0, 'fs.write', 'completed']]);
    expect(messagesOf(0).find((m) => m.role === 'tool')!.tool_call_id).toBe(WRITE.id);
  });

  it('a model turn is committed with the step it leads to: when that commit fails, neither is kept', async () => {
    server.script('chat', { text: 'Writing.', toolCalls: [WRITE] });
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    const db = harness.rt.store.sql;
    // The disk refuses the step's commit (a real SQLite abort, as a full disk would give).
    await db.exec(`CREATE TRIGGER refuse_steps BEFORE INSERT ON steps BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    const task = await createGoalTask(harness.rt, 'Write hello world into hello.txt');
    const done = await harness.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('disk full');
    const count = async (table: string) =>
      (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE task_id = ?`, [task.id]))!.n;
    const counts = [await count('steps'), await count('planner_turns'), await count('planner_states'), await count('task_events')];
    expect(counts).toEqual([0, 0, 0, 0]);
  });

  it('an answer saved before a crash ends the resumed task without another model call', async () => {
    server.script('chat', { text: 'Nothing needed doing.' });
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    const task = await createGoalTask(harness.rt, 'Check nothing');
    await storedPlannerState(harness.rt.store, task.id, systemClock).save({
      at: new Date().toISOString(),
      header: { queue: [], inboxSeq: 0, answer: 'Already done.' },
      turns: [{ role: 'assistant', text: 'Already done.', calls: [] }],
      events: [{ kind: 'answer', text: 'Already done.' }],
      answer: 'Already done.',
    });
    const done = await harness.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(done.answer).toBe('Already done.');
    expect(server.received('chat')).toHaveLength(0);
  });

  it('a state written by a newer Agent Desk is left to a newer worker: the run is refused with the reason, the task untouched, no model asked', async () => {
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    const task = await createGoalTask(harness.rt, 'anything');
    const repo = new PlannerStateRepo(harness.rt.store.sql);
    const newer = { version: PLANNER_STATE_VERSION + 1, header: { queue: [], inboxSeq: 0, future: true }, turns: [], events: [], at: 'x' };
    await repo.save(task.id, newer);
    const refused = await rejected(harness.rt.engine.run(task.id));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(
      new RegExp(`planner state version ${PLANNER_STATE_VERSION + 1}; this Agent Desk reads versions up to ${PLANNER_STATE_VERSION}`),
    );
    expect((await harness.rt.engine.get(task.id)).state).toBe(task.state);
    expect(await repo.load(task.id)).toEqual({ version: PLANNER_STATE_VERSION + 1, header: newer.header, turns: [] });
    expect(server.received('chat')).toHaveLength(0);
  });

  it('a task with steps but no saved state (from before planner states) resumes from its step rows and is saved from then on', async () => {
    server.script('chat', { toolCalls: [WRITE] }, { hang: true });
    const harness = openLlmRuntime(chatProvider(server.url));
    h = harness;
    const task = await createGoalTask(harness.rt, 'Write hello world into hello.txt');
    await harness.rt.engine.start(task.id);
    while (server.received('chat').length < 2) await new Promise((r) => setTimeout(r, 5));
    await harness.rt.engine.pause(task.id);
    await waitForState(harness.rt, task.id, ['paused']);
    await harness.rt.store.sql.run('DELETE FROM planner_turns WHERE task_id = ?', [task.id]);
    await harness.rt.store.sql.run('DELETE FROM planner_states WHERE task_id = ?', [task.id]);

    const rt = await harness.reopen();
    server.script('chat', { text: 'Done.' });
    expect((await rt.engine.run(task.id)).state).toBe('succeeded');
    expect(messagesOf(2).find((m) => m.role === 'tool')!.tool_call_id).toBe('call_step_0');
    const saved = (await new PlannerStateRepo(rt.store.sql).load(task.id))!;
    expect(saved.version).toBe(PLANNER_STATE_VERSION);
    expect(saved.turns).toHaveLength(2); // the rebuilt turn of step 1, then the answer
  });
});
