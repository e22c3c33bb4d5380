import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatProvider, createGoalTask, openLlmRuntime } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { waitForState } from '../../../support/runtime.js';

describe('LLM planner over Chat Completions (real SDK, real runtime, wire-protocol server)', () => {
  let server: ModelServer;
  beforeEach(async () => {
    server = await new ModelServer().start();
  });
  afterEach(async () => server.close());

  it('runs the tool-call loop to success on acceptance checks, with usage and cost on the task', async () => {
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } }], usage: { input: 1000, output: 100 } },
      { text: 'Wrote hello.txt.', usage: { input: 1200, output: 20, cached: 1000 } },
    );
    const h = openLlmRuntime(chatProvider(server.url), [{ type: 'file_contains', path: 'hello.txt', text: 'hello world' }]);
    try {
      const task = await createGoalTask(h.rt, 'Write hello world into hello.txt');
      const done = await h.rt.engine.run(task.id);
      expect(done.state).toBe('succeeded');
      expect(readFileSync(path.join(done.workspace, 'hello.txt'), 'utf8')).toBe('hello world');
      expect(done.usage).toMatchObject({ modelCalls: 2, tokensIn: 2200, tokensOut: 120 });
      // 1000 in + 100 out, then 200 fresh + 1000 cached in + 20 out
      expect(done.usage.costUsd).toBeCloseTo((1000 + 200 + 1000 * 0.1 + 2 * 120) / 1e6, 12);
      // The second request carries the tool result back, tied to the call id.
      const second = server.received('chat')[1]!.body.messages as { role: string; tool_call_id?: string; content?: string }[];
      const toolMessage = second.find((m) => m.role === 'tool')!;
      expect(toolMessage.tool_call_id).toBe('call_1');
      expect(toolMessage.content).toContain('hello.txt');
    } finally {
      await h.cleanup();
    }
  });

  it('keeps the stable prefix byte-identical across requests and offers tools sorted', async () => {
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_list', arguments: { path: '.' } }] },
      { toolCalls: [{ name: 'echo', arguments: { value: 1 } }] },
      { text: 'done' },
    );
    const h = openLlmRuntime(chatProvider(server.url));
    try {
      const task = await createGoalTask(h.rt, 'look around');
      mkdirSync(task.workspace, { recursive: true });
      writeFileSync(path.join(task.workspace, 'AGENTS.md'), 'Always be brief.');
      expect((await h.rt.engine.run(task.id)).state).toBe('succeeded');
      const bodies = server.received('chat').map((r) => r.body as { messages: unknown[]; tools: { function: { name: string } }[] });
      const prefixes = bodies.map((b) => JSON.stringify([b.tools, b.messages[0], b.messages[1]]));
      expect(new Set(prefixes).size).toBe(1);
      expect(JSON.stringify(bodies[0]!.messages[0])).toContain('Always be brief.');
      const names = bodies[0]!.tools.map((t) => t.function.name);
      expect(names).toEqual([...names].sort());
      expect(names).toContain('give_up');
    } finally {
      await h.cleanup();
    }
  });

  it('runs parallel read-only calls from one answer without asking the model in between, and answers a repeated read from the cache', async () => {
    server.script(
      'chat',
      {
        toolCalls: [
          { name: 'fs_read', arguments: { path: 'a.txt' } },
          { name: 'fs_read', arguments: { path: 'b.txt' } },
        ],
      },
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'a.txt' } }] },
      { text: 'A and B read.' },
    );
    const h = openLlmRuntime(chatProvider(server.url));
    try {
      const task = await createGoalTask(h.rt, 'read a and b');
      mkdirSync(task.workspace, { recursive: true });
      writeFileSync(path.join(task.workspace, 'a.txt'), 'alpha');
      writeFileSync(path.join(task.workspace, 'b.txt'), 'beta');
      const done = await h.rt.engine.run(task.id);
      expect(done.state).toBe('succeeded');
      expect((await h.rt.engine.steps(task.id)).map((s) => [s.tool, (s.args as { path: string }).path, s.status])).toEqual([
        ['fs.read', 'a.txt', 'completed'],
        ['fs.read', 'b.txt', 'completed'],
      ]);
      expect(done.usage.modelCalls).toBe(3);
      expect(h.planners[0]!.cacheHits).toBe(1);
      const third = JSON.stringify(server.received('chat')[2]!.body.messages);
      expect(third).toContain('from the read cache');
      expect(third).toContain('alpha');
    } finally {
      await h.cleanup();
    }
  });

  it('answers malformed calls (bad JSON, unknown tool, schema mismatch) as tool errors and goes on', async () => {
    server.script(
      'chat',
      {
        toolCalls: [
          { name: 'fs_write', arguments: '{"path": "x.txt", "content": ' },
          { name: 'fs_teleport', arguments: { to: 'mars' } },
          { name: 'fs_write', arguments: { path: 42 } },
        ],
      },
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'x.txt', content: 'fixed' } }] },
      { text: 'done' },
    );
    const h = openLlmRuntime(chatProvider(server.url), [{ type: 'file_contains', path: 'x.txt', text: 'fixed' }]);
    try {
      const task = await createGoalTask(h.rt, 'write x.txt');
      const done = await h.rt.engine.run(task.id);
      expect(done.state).toBe('succeeded');
      expect(h.planners[0]!.malformed).toEqual({ bad_json: 1, unknown_tool: 1, schema_mismatch: 1 });
      const tools = (server.received('chat')[1]!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
      expect(tools.map((m) => m.content.split(' ').slice(0, 6).join(' '))).toEqual([
        'ERROR: the arguments are not valid',
        'ERROR: there is no tool "fs_teleport";',
        'ERROR: the arguments do not match',
      ]);
      expect(await h.rt.engine.steps(task.id)).toHaveLength(1); // nothing malformed reached the engine
    } finally {
      await h.cleanup();
    }
  });

  it('stops a task that keeps sending malformed calls, with a clear reason', async () => {
    const bad = { toolCalls: [{ name: 'nope', arguments: {} }] };
    server.script('chat', bad, bad, bad);
    const h = openLlmRuntime(chatProvider(server.url));
    try {
      const done = await h.rt.engine.run((await createGoalTask(h.rt, 'anything')).id);
      expect(done.state).toBe('failed');
      expect(done.stateReason).toMatch(/malformed tool calls 3 turns in a row \(last: unknown_tool/);
      expect(done.usage.modelCalls).toBe(3);
    } finally {
      await h.cleanup();
    }
  });

  it('reports a failed tool call back to the model instead of failing the task', async () => {
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'missing.txt' } }] },
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'missing.txt', content: 'now here' } }] },
      { text: 'created it' },
    );
    const h = openLlmRuntime(chatProvider(server.url));
    try {
      const done = await h.rt.engine.run((await createGoalTask(h.rt, 'make sure missing.txt exists')).id);
      expect(done.state).toBe('succeeded');
      const toolMessage = (server.received('chat')[1]!.body.messages as { role: string; content: string }[]).find(
        (m) => m.role === 'tool',
      )!;
      expect(toolMessage.content).toMatch(/^ERROR: /);
    } finally {
      await h.cleanup();
    }
  });

  it('cancelling the task aborts the in-flight model call', async () => {
    server.script('chat', { hang: true });
    const h = openLlmRuntime(chatProvider(server.url));
    try {
      const task = await createGoalTask(h.rt, 'wait forever');
      await h.rt.engine.start(task.id);
      while (server.received('chat').length === 0) await new Promise((r) => setTimeout(r, 5));
      await h.rt.engine.cancel(task.id);
      const done = await waitForState(h.rt, task.id, ['cancelled', 'failed']);
      expect(done.state).toBe('cancelled');
      while (server.abandoned === 0) await new Promise((r) => setTimeout(r, 5));
    } finally {
      await h.cleanup();
    }
  });

  it('pausing the task aborts the in-flight model call and leaves it resumable', async () => {
    server.script('chat', { hang: true }, { text: 'nothing to do' });
    const h = openLlmRuntime(chatProvider(server.url));
    try {
      const task = await createGoalTask(h.rt, 'pause me');
      await h.rt.engine.start(task.id);
      while (server.received('chat').length === 0) await new Promise((r) => setTimeout(r, 5));
      await h.rt.engine.pause(task.id);
      expect((await waitForState(h.rt, task.id, ['paused', 'failed'])).state).toBe('paused');
      await h.rt.engine.resume(task.id);
      expect((await waitForState(h.rt, task.id, ['succeeded', 'failed'])).state).toBe('succeeded');
    } finally {
      await h.cleanup();
    }
  });
});
