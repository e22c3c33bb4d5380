import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { withLlmGoals } from '../../../../electron/runtime/planning/llm/goalPlans.js';
import type { AnyTool } from '../../../../electron/runtime/tools/types.js';
import { chatProvider, createGoalTask, TEST_PRICES } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';

/** Only reached when calls that should overlap run one after another (the test then fails, not hangs). */
const NO_OVERLAP_GUARD_MS = 5_000;

/** Tools that record how many of them run at once; a `meet` tool waits until its partner has started. */
function probes() {
  let active = 0;
  const seen = { maxActive: 0, order: [] as string[] };
  const started = new Map<string, () => void>();
  const startedPromise = new Map<string, Promise<void>>();
  for (const name of ['probe.a', 'probe.b', 'note.write']) startedPromise.set(name, new Promise((r) => started.set(name, r)));
  const make = (name: string, readOnly: boolean, meet?: string): AnyTool =>
    testTool({
      name,
      risk: readOnly ? 'read' : 'write',
      readOnly,
      idempotent: readOnly,
      run: async () => {
        active++;
        seen.maxActive = Math.max(seen.maxActive, active);
        seen.order.push(name);
        started.get(name)!();
        let met = false;
        if (meet) {
          const guard = new Promise<void>((r) => setTimeout(r, NO_OVERLAP_GUARD_MS).unref());
          await Promise.race([startedPromise.get(meet)!.then(() => void (met = true)), guard]);
        } else await new Promise((r) => setImmediate(r));
        active--;
        return { tool: name, met };
      },
    });
  return { seen, make };
}

describe('parallel tool calls in one model turn', () => {
  let server: ModelServer;
  let h: TestRuntime | undefined;
  beforeEach(async () => {
    server = await new ModelServer().start();
  });
  afterEach(async () => {
    await h?.cleanup();
    await server.close();
  });

  function open(tools: AnyTool[]): Runtime {
    h = openTestRuntime({
      tools,
      modules: (core) => [
        {
          name: 'test model',
          plans: withLlmGoals({
            registry: core.registry,
            provider: () => chatProvider(server.url),
            acceptance: () => [],
            prices: TEST_PRICES,
          }),
        },
      ],
    });
    return h.rt;
  }

  it('runs read-only calls of one turn concurrently and returns their results in call order', async () => {
    const { seen, make } = probes();
    const rt = open([make('probe.a', true, 'probe.b'), make('probe.b', true, 'probe.a')]);
    server.script(
      'chat',
      {
        toolCalls: [
          { id: 'call_a', name: 'probe_a', arguments: { key: 'a' } },
          { id: 'call_b', name: 'probe_b', arguments: { key: 'b' } },
        ],
      },
      { text: 'both probed' },
    );
    const done = await rt.engine.run((await createGoalTask(rt, 'probe both')).id);
    expect(done.state).toBe('succeeded');
    // Each waited for the other to have started: only possible if both ran at once.
    expect(seen.maxActive).toBe(2);
    expect((await rt.engine.steps(done.id)).map((s) => [s.index, s.tool, (s.output as { met: boolean }).met])).toEqual([
      [0, 'probe.a', true],
      [1, 'probe.b', true],
    ]);
    // The model call that chose both is charged once, to the first step.
    const [first, second] = await rt.engine.steps(done.id);
    expect(first!.costUsd).toBeGreaterThan(0);
    expect(second!.costUsd).toBe(0);
    const messages = server.received('chat')[1]!.body.messages as { role: string; tool_call_id?: string; content?: string }[];
    const results = messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(['call_a', 'call_b']);
    expect(results[0]!.content).toContain('probe.a');
    expect(results[1]!.content).toContain('probe.b');
  });

  it('runs a turn with a write in it one call after another', async () => {
    const { seen, make } = probes();
    const rt = open([make('probe.a', true), make('note.write', false)]);
    server.script(
      'chat',
      {
        toolCalls: [
          { name: 'probe_a', arguments: { key: 'a' } },
          { name: 'note_write', arguments: { key: 'n' } },
        ],
      },
      { text: 'done' },
    );
    const done = await rt.engine.run((await createGoalTask(rt, 'probe then write')).id);
    expect(done.state).toBe('succeeded');
    expect(seen.maxActive).toBe(1);
    expect(seen.order).toEqual(['probe.a', 'note.write']);
  });
});
