import { describe, expect, it } from 'vitest';
import type { Step, Task } from '../../../../../electron/contract/index.js';
import { estimateWork } from '../../../../../electron/runtime/context/tokenEstimate.js';
import type { ModelProvider, ModelResponse } from '../../../../../electron/runtime/models/types.js';
import { LlmPlanner } from '../../../../../electron/runtime/planning/llm/llmPlanner.js';
import { buildCatalog } from '../../../../../electron/runtime/planning/llm/toolCatalog.js';
import type { PlannerState } from '../../../../../electron/runtime/planning/planner.js';
import { echoTool } from '../../../../../electron/runtime/tools/builtin/index.js';

/** The engine's latest-step map, counting every read the planner makes of it. */
class CountingMap extends Map<number, Step> {
  reads = 0;
  override get(key: number): Step | undefined {
    this.reads++;
    return super.get(key);
  }
  override values(): MapIterator<Step> {
    this.reads += this.size;
    return super.values();
  }
  override entries(): MapIterator<[number, Step]> {
    this.reads += this.size;
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[number, Step]> {
    return this.entries();
  }
}

/** A model that never reads its input: an echo of a fresh value per call. */
function echoModel(): ModelProvider {
  let k = 0;
  return {
    kind: 'test',
    model: 'test',
    complete: async (): Promise<ModelResponse> => ({
      text: '',
      toolCalls: [{ id: `call_${++k}`, name: 'echo', argumentsText: JSON.stringify({ value: k }) }],
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      stopReason: 'tool_calls',
      model: 'test',
    }),
  };
}

/** Plans `steps` echo steps, completing each as the engine would; the planner's reads and estimates per step. */
async function workPerStep(steps: number): Promise<{ reads: number; estimates: number; chars: number }> {
  const planner = new LlmPlanner({
    provider: echoModel(),
    catalog: buildCatalog([echoTool]),
    prefix: async () => ({ systemPrompt: 'sys', goal: 'echo' }),
  });
  const latest = new CountingMap();
  const all: Step[] = [];
  const state: PlannerState = { task: { id: 'tsk_work' } as Task, steps: all, latest, inputs: {}, env: {} };
  const signal = new AbortController().signal;
  const before = { ...estimateWork };
  for (let i = 0; i < steps; i++) {
    const decision = await planner.next(state, signal);
    if (decision.type !== 'call') throw new Error(`expected a call, got ${decision.type}`);
    const step = {
      id: `stp_${decision.index}`,
      taskId: 'tsk_work',
      index: decision.index,
      attempt: 1,
      tool: decision.tool!,
      args: decision.args,
      status: 'completed',
      idempotencyKey: `k${decision.index}`,
      readOnly: true,
      idempotent: true,
      output: { value: decision.args.value },
      tokens: 0,
      costUsd: 0,
      startedAt: '2026-12-01T00:00:00.000Z',
    } satisfies Step;
    all.push(step);
    latest.set(step.index, step);
  }
  return {
    reads: latest.reads / steps,
    estimates: (estimateWork.calls - before.calls) / steps,
    chars: (estimateWork.chars - before.chars) / steps,
  };
}

describe('LLM planner work per step', () => {
  it('reads the step records and estimates tokens a bounded number of times per step, however long the task (no quadratic work)', async () => {
    const short = await workPerStep(200);
    const long = await workPerStep(2000);
    // Each step looks at its own record and the few still open, never the whole history.
    expect(long.reads).toBeLessThanOrEqual(short.reads * 1.1 + 1);
    expect(long.estimates).toBeLessThanOrEqual(short.estimates * 1.1 + 1);
    expect(long.chars).toBeLessThanOrEqual(short.chars * 1.1 + 100);
  });
});
