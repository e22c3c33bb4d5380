import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type HookInput, type TraceEvent } from '../../../../electron/contract/index.js';
import { openRuntime } from '../../../../electron/capabilities/composition/openRuntime.js';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { pollUntil } from '../../../support/poll.js';
import { tempDir } from '../../../support/runtime.js';

// Hooks through the product's composition: config.json in AGENT_DESK_HOME, `openRuntime`, real
// scripts run as child processes, a model behind the local Chat Completions wire server.

const MODEL_KEY = 'sk-local-hooks-7f3e2d1c0b9a8f7e';

let models: ModelServer;
let home = '';
let rt: Runtime | undefined;
beforeAll(async () => void (models = await new ModelServer().start()));
afterAll(async () => models.close());
afterEach(async () => {
  await rt?.close();
  rt = undefined;
  rmSync(home, { recursive: true, force: true });
});

// Each test gets a fresh data folder holding the model's key; it writes its scripts there, then starts.
beforeEach(() => {
  home = tempDir('agent-desk-hooks-');
  process.env.AGENT_DESK_HOME = home;
  new FileSecretStore(home).set('local-key', MODEL_KEY);
});

/** Writes config.json with a model provider and these hooks, and opens the runtime as the CLI and app do. */
async function start(hooks: Record<string, unknown>): Promise<Runtime> {
  const config = {
    models: {
      providers: { local: { kind: 'openai-chat', baseUrl: models.url, apiKeySecret: 'local-key' } },
      defaultModel: 'local:gpt-test',
    },
    hooks,
  };
  writeFileSync(path.join(home, 'config.json'), JSON.stringify(config));
  rt = await openRuntime('full');
  return rt;
}

/** Writes a hook script under the data folder and returns the command that runs it. */
function script(name: string, body: string): string {
  const dir = path.join(home, 'hooks');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, body, { mode: 0o755 });
  return file.endsWith('.mjs') ? `node ${file}` : file;
}

function workspace(files: Record<string, string> = {}): string {
  const dir = path.join(home, 'ws');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

async function hookEvents(taskId: string): Promise<TraceEvent[]> {
  return (await rt!.trace.page(taskId, 0, 1000)).events.filter((e) => e.type.startsWith('hook.'));
}

async function rpc(method: string, params: unknown): Promise<{ result?: unknown; error?: { code: string; message: string } }> {
  return (await rt!.dispatcher.dispatch({ id: 1, method, params }, { scopes: [...ALL_SCOPES], clientId: 'test' })) as {
    result?: unknown;
    error?: { code: string; message: string };
  };
}

/** A PreToolUse guard written the way Claude Code users write one: read stdin JSON, exit 2 with the reason on stderr. */
const DENY_DELETES = (log: string) => `import { readFileSync, writeFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
writeFileSync(${JSON.stringify(log)}, JSON.stringify(input));
if (input.tool_name === 'fs.delete') {
  process.stderr.write('deleting ' + input.tool_input.path + ' is not allowed in ' + process.cwd());
  process.exit(2);
}
`;

describe('PreToolUse hooks', () => {
  it('a hook script denies fs.delete: the file stays, the step records the reason, and the model reads it as the call’s answer', async () => {
    const log = path.join(home, 'pre.json');
    const guard = script('guard.mjs', DENY_DELETES(log));
    const rt = await start({ PreToolUse: [{ matcher: 'fs.*', hooks: [{ type: 'command', command: guard, timeout: 30 }] }] });
    const ws = workspace({ 'old.log': 'keep me' });
    models.script(
      'chat',
      { toolCalls: [{ name: 'fs_delete', arguments: { path: 'old.log' } }] },
      { text: 'The hook did not let me delete it.' },
    );
    const task = await rt.engine.create({
      title: 'clean',
      plan: { kind: 'goal', goal: 'Delete old.log', acceptance: [{ type: 'file_exists', path: 'old.log', exists: true }] },
      inputs: {},
      workspace: ws,
    });

    const done = await rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(readFileSync(path.join(ws, 'old.log'), 'utf8')).toBe('keep me');
    const [step] = await rt.engine.steps(task.id);
    expect(step).toMatchObject({ tool: 'fs.delete', status: 'denied', policy: { effect: 'deny', source: 'hook', rememberable: false } });
    expect(step!.error).toBe(`denied by PreToolUse hook: deleting old.log is not allowed in ${ws}`);
    expect(await rt.approvals.list({})).toEqual([]);

    // The model's next request carries the hook's reason as the call's error.
    const second = JSON.stringify(models.received('chat').at(-1)!.body);
    expect(second).toContain('deleting old.log is not allowed');

    // What the script got on stdin: the event in Claude Code's field names, for this task and workspace.
    const input = JSON.parse(readFileSync(log, 'utf8')) as Extract<HookInput, { hook_event_name: 'PreToolUse' }>;
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: task.id,
      task_id: task.id,
      cwd: ws,
      tool_name: 'fs.delete',
      tool_input: { path: 'old.log' },
      step_index: 0,
      task_kind: 'goal',
    });
    const [run] = await hookEvents(task.id);
    expect(run).toMatchObject({
      type: 'hook.run',
      data: {
        event: 'PreToolUse',
        command: guard,
        tool: 'fs.delete',
        exitCode: 2,
        effect: 'deny',
        stderr: expect.stringContaining('not allowed'),
      },
    });
    expect(typeof run!.data.durationMs).toBe('number');
  });

  it('in a playbook the denial fails the task with the hook’s reason (like a deny rule), unless the step says onDeny: continue', async () => {
    const guard = script('guard.sh', `#!/bin/sh\ncat >/dev/null\necho "no deletes today" >&2\nexit 2\n`);
    const rt = await start({ PreToolUse: [{ matcher: 'fs.delete', hooks: [{ type: 'command', command: guard }] }] });
    const ws = workspace({ 'a.txt': 'a', 'b.txt': 'b' });
    const playbook = (onDeny: string) =>
      `name: cleanup\nsteps:\n  - tool: fs.delete\n    args: { path: a.txt }\n${onDeny}  - tool: fs.write\n    args: { path: after.txt, content: ran }\n`;
    const failing = await rt.engine.create({
      title: 'p',
      plan: { kind: 'playbook', source: playbook(''), baseDir: home },
      inputs: {},
      workspace: ws,
    });
    const failed = await rt.engine.run(failing.id);
    expect(failed.state).toBe('failed');
    expect(failed.stateReason).toBe('step 1 (fs.delete) denied by PreToolUse hook: no deletes today');
    expect(existsSync(path.join(ws, 'a.txt'))).toBe(true);
    expect(existsSync(path.join(ws, 'after.txt'))).toBe(false);

    const going = await rt.engine.create({
      title: 'p',
      plan: { kind: 'playbook', source: playbook('    onDeny: continue\n'), baseDir: home },
      inputs: {},
      workspace: ws,
    });
    const done = await rt.engine.run(going.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect((await rt.engine.steps(going.id)).map((s) => [s.tool, s.status])).toEqual([
      ['fs.delete', 'denied'],
      ['fs.write', 'completed'],
    ]);
    expect(existsSync(path.join(ws, 'a.txt'))).toBe(true);
  });

  it('a hook that hangs is cut at its timeout with a hook.timeout event, one that exits 1 is a hook.error, and neither blocks the call', async () => {
    const hang = script('hang.sh', `#!/bin/sh\nsleep 300\n`);
    const broken = script('broken.sh', `#!/bin/sh\necho "config file missing" >&2\nexit 1\n`);
    const rt = await start({
      PreToolUse: [
        { matcher: 'fs.list', hooks: [{ type: 'command', command: hang, timeout: 1 }] },
        {
          hooks: [
            { type: 'command', command: broken },
            { type: 'command', command: '/no/such/hook' },
          ],
        },
      ],
    });
    const ws = workspace({ 'x.txt': 'x' });
    const task = await rt.engine.create({
      title: 'p',
      plan: { kind: 'playbook', source: 'name: ls\nsteps:\n  - tool: fs.list\n    args: { path: . }\n', baseDir: home },
      inputs: {},
      workspace: ws,
    });
    const done = await rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect((await rt.engine.steps(task.id))[0]!.status).toBe('completed');
    const events = await hookEvents(task.id);
    expect(events.find((e) => e.type === 'hook.timeout')).toMatchObject({
      data: {
        event: 'PreToolUse',
        command: hang,
        tool: 'fs.list',
        timeoutMs: 1000,
        error: expect.stringMatching(/^timed out after \d+ ms$/),
      },
    });
    expect(events.find((e) => e.data.command === broken)).toMatchObject({
      type: 'hook.error',
      data: { exitCode: 1, error: 'exited with code 1: config file missing' },
    });
    expect(events.find((e) => e.data.command === '/no/such/hook')).toMatchObject({ type: 'hook.error', data: { exitCode: 127 } });
    // The hook's own start precedes the step it gated.
    const trace = (await rt.trace.page(task.id, 0, 1000)).events;
    const timeoutAt = trace.findIndex((e) => e.type === 'hook.timeout');
    expect(timeoutAt).toBeLessThan(trace.findIndex((e) => e.type === 'step.completed'));
  });
});

describe('a hook can never approve (the attack)', () => {
  it('"allow" from a hook, in every spelling, leaves a delete waiting for a person; "ask" makes an allowed read wait too', async () => {
    const allow = script(
      'allow.sh',
      `#!/bin/sh\ncat >/dev/null\necho '{"decision":"approve","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trusted"}}'\n`,
    );
    const ask = script('ask.sh', `#!/bin/sh\ncat >/dev/null\necho '{"decision":"ask","reason":"reads of secrets.txt are reviewed"}'\n`);
    const notified = path.join(home, 'notified.jsonl');
    const notify = script('notify.sh', `#!/bin/sh\ncat >> ${notified}\necho >> ${notified}\n`);
    const rt = start({
      PreToolUse: [
        { matcher: 'fs.delete', hooks: [{ type: 'command', command: allow }] },
        { matcher: 'fs.read', hooks: [{ type: 'command', command: ask }] },
      ],
      Notification: [{ hooks: [{ type: 'command', command: notify }] }],
    });
    const ws = workspace({ 'old.log': 'x', 'secrets.txt': 'y' });
    const run = async (tool: string, file: string) => {
      const source = `name: one\nsteps:\n  - tool: ${tool}\n    args: { path: ${file} }\n`;
      const task = await (
        await rt!
      ).engine.create({ title: tool, plan: { kind: 'playbook', source, baseDir: home }, inputs: {}, workspace: ws });
      return (await rt!).engine.run(task.id, { detachOnApproval: true });
    };

    const deleting = await run('fs.delete', 'old.log');
    expect(deleting.state).toBe('waiting_approval');
    expect(existsSync(path.join(ws, 'old.log'))).toBe(true);
    const [deleteApproval] = await (await rt).approvals.list({ status: 'pending' });
    expect(deleteApproval).toMatchObject({ tool: 'fs.delete', risks: ['delete'] });
    expect((await (await rt).engine.steps(deleting.id))[0]!.policy).toMatchObject({ effect: 'ask', source: 'default' });

    const reading = await run('fs.read', 'secrets.txt');
    expect(reading.state).toBe('waiting_approval');
    const readStep = (await (await rt).engine.steps(reading.id))[0]!;
    expect(readStep.policy).toMatchObject({
      effect: 'ask',
      source: 'hook',
      rememberable: false,
      reason: 'PreToolUse hook asks: reads of secrets.txt are reviewed',
    });
    const readApproval = (await (await rt).approvals.list({ status: 'pending' })).find((a) => a.tool === 'fs.read')!;
    expect(readApproval.rememberable).toBe(false);

    // Notification hooks heard of both approvals, with the approval's id and summary.
    const lines = await pollUntil('both notifications', () => {
      const text = existsSync(notified) ? readFileSync(notified, 'utf8').trim() : '';
      const parsed = text ? text.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
      return parsed.length >= 2 ? parsed : undefined;
    });
    expect(lines.map((l) => [l.hook_event_name, l.notification_type, l.approval_id]).sort()).toEqual(
      [
        ['Notification', 'approval_requested', deleteApproval!.id],
        ['Notification', 'approval_requested', readApproval.id],
      ].sort(),
    );
  });
});

describe('context for the model', () => {
  it('UserPromptSubmit adds context to the goal’s first request and after each message; PostToolUse adds it after a result; a blocked message is refused', async () => {
    const prompts = path.join(home, 'prompts.jsonl');
    const submit = script(
      'submit.mjs',
      `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(${JSON.stringify(prompts)}, JSON.stringify(input) + '\\n');
if (input.prompt.includes('rm -rf')) { process.stderr.write('destructive requests are not accepted'); process.exit(2); }
console.log('ticket ' + (input.prompt_source === 'goal' ? 'OPS-1' : 'OPS-2') + ' applies to: ' + input.prompt);
`,
    );
    const post = script(
      'post.mjs',
      `import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const names = input.tool_response.entries.map((e) => e.path ?? e.name).join(',');
// A careless hook prints a secret it found: it must reach neither the model nor the disk.
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'listed by post hook: ' + names + ' (key ${MODEL_KEY})' } }));
`,
    );
    const rt = await start({
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: submit }] }],
      PostToolUse: [{ matcher: 'fs.list', hooks: [{ type: 'command', command: post }] }],
    });
    const ws = workspace({ 'fence.txt': 'red' });
    let taskId = '';
    const refusals: unknown[] = [];
    models.script(
      'chat',
      async () => {
        // A person writes while the model thinks: one message passes, one the hook blocks.
        expect((await rpc('tasks.message', { taskId, text: `Use blue, key ${MODEL_KEY}` })).result).toMatchObject({
          seq: expect.any(Number),
        });
        refusals.push((await rpc('tasks.message', { taskId, text: 'then rm -rf everything' })).error);
        return { toolCalls: [{ name: 'fs_list', arguments: { path: '.' } }] };
      },
      { text: 'Painted it blue.' },
    );
    const before = models.received('chat').length;
    taskId = (
      await rt.engine.create({
        title: 'paint',
        plan: { kind: 'goal', goal: 'Paint the fence', acceptance: [{ type: 'file_exists', path: 'fence.txt', exists: true }] },
        inputs: {},
        workspace: ws,
      })
    ).id;
    const done = await rt.engine.run(taskId);
    expect(done.state, done.stateReason).toBe('succeeded');

    const [first, second] = models
      .received('chat')
      .slice(before)
      .map((r) => JSON.stringify(r.body));
    expect(first).toContain('[UserPromptSubmit hook] ticket OPS-1 applies to: Paint the fence');
    expect(second).toContain('Use blue, key [secret:local-key]');
    expect(second).toContain('[UserPromptSubmit hook] ticket OPS-2 applies to: Use blue, key [secret:local-key]');
    expect(second).toContain('[PostToolUse hook] listed by post hook: fence.txt (key [secret:local-key])');
    expect(JSON.stringify(models.received('chat').map((r) => r.body))).not.toContain(MODEL_KEY);
    expect(JSON.stringify(await hookEvents(taskId))).not.toContain(MODEL_KEY);
    expect(second).not.toContain('rm -rf');
    expect(refusals).toEqual([
      { code: 'forbidden', message: 'the message was blocked by a UserPromptSubmit hook: destructive requests are not accepted' },
    ]);

    // The conversation shows the hook's context where the model read it; the blocked message is nowhere.
    expect((await rt.engine.events(taskId)).map((e) => [e.kind, e.text])).toEqual([
      ['hook.context', '[UserPromptSubmit hook] ticket OPS-1 applies to: Paint the fence'],
      ['user.message', 'Use blue, key [secret:local-key]'],
      ['hook.context', '[UserPromptSubmit hook] ticket OPS-2 applies to: Use blue, key [secret:local-key]'],
      ['hook.context', '[PostToolUse hook] listed by post hook: fence.txt (key [secret:local-key])'],
      ['answer', 'Painted it blue.'],
    ]);
    // The hook saw the stored secret masked, never its value.
    const seen = readFileSync(prompts, 'utf8');
    expect(seen).not.toContain(MODEL_KEY);
    expect(
      seen
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { prompt_source: string }).prompt_source),
    ).toEqual(['goal', 'message', 'message']);
  });
});

describe('TaskStart and TaskEnd', () => {
  it('are observed: their runs reach the trace only, and a UserPromptSubmit block fails a goal before any model call', async () => {
    const seen = path.join(home, 'lifecycle.jsonl');
    const observe = script(
      'observe.sh',
      `#!/bin/sh\ncat >> ${seen}\necho >> ${seen}\necho '{"decision":"deny","reason":"ignored for observers"}'\n`,
    );
    const block = script('block.sh', `#!/bin/sh\ncat >/dev/null\necho "goals need a ticket number" >&2\nexit 2\n`);
    const rt = await start({
      TaskStart: [{ hooks: [{ type: 'command', command: observe }] }],
      TaskEnd: [{ hooks: [{ type: 'command', command: observe }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: block }] }],
    });
    const before = models.received('chat').length;
    const task = await rt.engine.create({
      title: 'g',
      plan: { kind: 'goal', goal: 'Do something', acceptance: [{ type: 'file_exists', path: 'x', exists: true }] },
      inputs: {},
      workspace: workspace(),
    });
    const done = await rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('the goal was blocked by a UserPromptSubmit hook: goals need a ticket number');
    expect(models.received('chat').length).toBe(before);
    await rt.hooks!.idle();
    const events = readFileSync(seen, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => e.hook_event_name).sort()).toEqual(['TaskEnd', 'TaskStart']);
    expect(events.find((e) => e.hook_event_name === 'TaskEnd')).toMatchObject({ state: 'failed', task_id: task.id });
    expect((await hookEvents(task.id)).filter((e) => e.data.event === 'TaskEnd')).toMatchObject([
      { type: 'hook.run', data: { exitCode: 0, effect: 'deny' } },
    ]);
  });
});

describe('hooks in config.json', () => {
  it('settings.set replaces the hooks of a running runtime: the next call meets them; a bad section is refused', async () => {
    const rt = await start({});
    const guard = script('guard.sh', `#!/bin/sh\ncat >/dev/null\necho "set over RPC" >&2\nexit 2\n`);
    const bad = await rpc('settings.set', { config: { hooks: { PreToolUse: [{ hooks: [] }] } } });
    expect(bad.error).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('hooks.PreToolUse[0].hooks: ') });
    const saved = await rpc('settings.set', {
      config: { hooks: { PreToolUse: [{ matcher: 'fs.*', hooks: [{ type: 'command', command: guard }] }] } },
    });
    expect(saved.error).toBeUndefined();
    const ws = workspace({ 'a.txt': 'a' });
    const task = await rt.engine.create({
      title: 'p',
      plan: { kind: 'playbook', source: 'name: rm\nsteps:\n  - tool: fs.delete\n    args: { path: a.txt }\n', baseDir: home },
      inputs: {},
      workspace: ws,
    });
    const done = await rt.engine.run(task.id);
    expect(done.stateReason).toBe('step 1 (fs.delete) denied by PreToolUse hook: set over RPC');
    expect(existsSync(path.join(ws, 'a.txt'))).toBe(true);
  });

  it('a bad hooks section is a clear config error, one line per problem with its path', async () => {
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'fs.*', hooks: [{ type: 'shell', command: 'x' }] },
            { hooks: [{ type: 'command', command: '', timeout: -1 }] },
          ],
          BeforeEverything: [],
        },
      }),
    );
    let error: { code?: string; message?: string } = {};
    try {
      await openRuntime('full');
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('invalid_params');
    const lines = error.message!.split('\n');
    expect(lines[0]).toMatch(/ is invalid( \(\d+ problems\))?:$/);
    expect(lines[0]!.startsWith(`${path.join(home, 'config.json')} is invalid`)).toBe(true);
    // One line per problem, each naming its path (the wording is zod's, made readable by the config loader).
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^hooks\.PreToolUse\[0\]\.hooks\[0\]\.type: .*expected "command"$/),
      expect.stringMatching(/^hooks\.PreToolUse\[1\]\.hooks\[0\]\.command: .*>=1 characters$/),
      expect.stringMatching(/^hooks\.PreToolUse\[1\]\.hooks\[0\]\.timeout: .*>0$/),
      expect.stringMatching(/^hooks(\.BeforeEverything: unknown field|: Unrecognized key: "BeforeEverything")$/),
    ]);
  });
});
