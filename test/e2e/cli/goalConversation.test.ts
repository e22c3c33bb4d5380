import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain, useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { pollUntil } from '../../support/poll.js';
import { tempDir } from '../../support/runtime.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';

const KEY = 'sk-e2e-conversation-4c1d9e';
const CHECK = { type: 'file_contains' as const, name: 'greeting', path: 'hello.txt', text: 'hello world' };

interface ShowJson {
  task: { id: string; state: string; answer?: string };
  events: { kind: string; text: string }[];
}

let server: ModelServer;
let cli: CliSandbox;
const dirs: string[] = [];
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());
beforeEach(async () => {
  cli = new CliSandbox();
  server.requests.length = 0;
  await useLocalModel(cli, server.url, KEY);
});
afterEach(async () => {
  await cli.cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const agentDesk = (args: string[]) => cli.run(args, { timeoutMs: 60_000 });

/** Adds settings to the config `useLocalModel` wrote. */
function configure(extra: Record<string, unknown>): void {
  const file = path.join(cli.home, 'config.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...extra }));
}

/** Every chat request's text as the model received it, in order. */
const requestTexts = (): string[] => server.received('chat').map((r) => JSON.stringify(r.body.messages));

describe('a goal task’s conversation through the CLI (local wire-protocol model server)', () => {
  it('the final answer is printed by run and shown by tasks show, with the model’s text before it, and in --json (memory off by default)', async () => {
    const checks = path.join(cli.home, 'checks.json');
    writeFileSync(checks, JSON.stringify([CHECK]));
    server.script(
      'chat',
      { text: 'I will write the file.', toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } }] },
      { text: 'Wrote hello world into hello.txt.' },
    );
    // Memory stays out of prompts unless memory.inPrompt is set.
    const workspace = tempDir('agent-desk-ws-');
    dirs.push(workspace);
    expect((await agentDesk(['memory', 'add', 'The office wifi password is on the fridge.', '--workspace', workspace])).code).toBe(0);
    const run = await agentDesk(['run', '--goal', 'Write hello world into hello.txt', '--checks', checks, '--workspace', workspace]);
    expect(run.code, explain(run)).toBe(0);
    expect(requestTexts().join('\n')).not.toContain('wifi');
    expect(run.stdout).toContain('Answer:\nWrote hello world into hello.txt.');
    const taskId = /^(tsk_\w+)/m.exec(run.stdout)![1]!;

    const shown = await agentDesk(['tasks', 'show', taskId, '--json']);
    expect(shown.code, explain(shown)).toBe(0);
    const json = shown.json<ShowJson>();
    expect(json.task).toMatchObject({ id: taskId, state: 'succeeded', answer: 'Wrote hello world into hello.txt.' });
    expect(json.events.map((e) => [e.kind, e.text])).toEqual([
      ['model.text', 'I will write the file.'],
      ['answer', 'Wrote hello world into hello.txt.'],
    ]);
    const text = await agentDesk(['tasks', 'show', taskId]);
    expect(text.stdout).toContain('Model: I will write the file.');
    expect(text.stdout).toMatch(/Answer:\nWrote hello world into hello\.txt\.\s*$/);
  });

  it('exit 3 → tasks message → approve → run --resume: the new process continues the same conversation with the message, and the note saved by memory.save reaches the next task of that workspace (memory.inPrompt)', async () => {
    configure({ memory: { inPrompt: true } });
    const [workspace, other] = [tempDir('agent-desk-ws-'), tempDir('agent-desk-ws-')];
    dirs.push(workspace, other);
    for (const dir of [workspace, other]) writeFileSync(path.join(dir, 'seed.txt'), 'seed');
    const checks = path.join(cli.home, 'checks.json');
    writeFileSync(checks, JSON.stringify([{ type: 'file_exists', name: 'seed', path: 'seed.txt' }]));
    server.script('chat', {
      text: 'Saving what I learned.',
      toolCalls: [{ id: 'call_mem_41', name: 'memory_save', arguments: { text: 'The staging database lives in eu-west-3.' } }],
    });
    const first = await agentDesk([
      'run',
      '--goal',
      'Find where staging lives and remember it',
      '--workspace',
      workspace,
      '--checks',
      checks,
    ]);
    expect(first.code, explain(first)).toBe(3); // memory.save asks before anything is remembered
    const taskId = /^(tsk_\w+)/m.exec(first.stdout)![1]!;
    const approvalId = /waiting for approval (\S+):/.exec(first.stdout)![1]!;

    const sent = await agentDesk(['tasks', 'message', taskId, 'Then tell me the region in one word.']);
    expect(sent.code, explain(sent)).toBe(0);
    expect((await agentDesk(['approvals', 'approve', approvalId])).code).toBe(0);
    server.script('chat', { text: 'eu-west-3' });
    const resumed = await agentDesk(['run', '--resume', taskId, '--json']);
    expect(resumed.code, explain(resumed)).toBe(0);
    expect(resumed.json<{ task: { answer?: string } }>().task.answer).toBe('eu-west-3');

    const afterResume = server.received('chat')[1]!.body.messages as { role: string; content?: unknown; tool_call_id?: string }[];
    expect(afterResume.find((m) => m.role === 'tool')?.tool_call_id).toBe('call_mem_41');
    expect(JSON.stringify(afterResume)).toContain('Saving what I learned.');
    expect(JSON.stringify(afterResume.at(-1))).toContain('Then tell me the region in one word.');

    // The next goal task in the same workspace gets the note in its prompt; one elsewhere does not.
    server.script('chat', { text: 'Staging is in eu-west-3.' }, { text: 'No idea.' });
    const next = await agentDesk(['run', '--goal', 'Where does staging live?', '--workspace', workspace, '--checks', checks]);
    expect(next.code, explain(next)).toBe(0);
    const elsewhere = await agentDesk(['run', '--goal', 'Where does staging live?', '--workspace', other, '--checks', checks]);
    expect(elsewhere.code, explain(elsewhere)).toBe(0);
    const [, , inWorkspace, outside] = requestTexts();
    expect(inWorkspace).toContain('The staging database lives in eu-west-3.');
    expect(outside).not.toContain('eu-west-3');
  });

  it('a serve killed while its goal task waits for an approval: the next serve continues the same conversation, with a message sent over RPC, and tasks.get has the answer', async () => {
    const first = await startServe(cli);
    const client = await first.connect();
    server.script('chat', {
      text: 'Noting the region first.',
      toolCalls: [{ id: 'call_mem_serve', name: 'memory_save', arguments: { text: 'Staging runs in eu-west-3.' } }],
    });
    const created = await client.call('tasks.create', {
      goal: 'Remember where staging runs, then say it',
      checks: [{ type: 'file_exists', name: 'none', path: '.' }],
    });
    await waitForTaskState(client, created.id, ['waiting_approval']);
    expect((await client.call('tasks.message', { taskId: created.id, text: 'Answer with the region only.' })).seq).toBe(2);
    await client.close();
    await first.child.kill('SIGKILL');

    const second = await startServe(cli);
    const again = await second.connect();
    try {
      const [approval] = (await again.call('approvals.list', { status: 'pending', taskId: created.id })).approvals;
      server.script('chat', { text: 'eu-west-3' });
      await again.call('approvals.decide', { approvalId: approval!.id, decision: 'approve' });
      const done = await waitForTaskState(again, created.id, ['succeeded', 'failed', 'cancelled'], 60_000);
      expect(done.state, done.stateReason).toBe('succeeded');
      const { task, events } = await again.call('tasks.get', { taskId: created.id });
      expect(task.answer).toBe('eu-west-3');
      expect(events.map((e) => e.kind)).toEqual(['model.text', 'user.message', 'answer']);
      const resumed = await pollUntil('the request after the restart', () => server.received('chat')[1]);
      const messages = resumed.body.messages as { role: string; tool_call_id?: string }[];
      expect(messages.find((m) => m.role === 'tool')?.tool_call_id).toBe('call_mem_serve');
      expect(JSON.stringify(messages)).toContain('Noting the region first.');
      expect(JSON.stringify(messages.at(-1))).toContain('Answer with the region only.');
    } finally {
      await again.close();
    }
  }, 120_000);
});
