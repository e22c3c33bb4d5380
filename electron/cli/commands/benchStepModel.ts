import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { AgentDeskError } from '../../runtime/errors.js';
import type { ModelProvider, ModelRequest, ModelResponse } from '../../runtime/models/types.js';
import { toWireName } from '../../runtime/planning/llm/toolCatalog.js';
import { benchMachine, openBenchRuntime, type BenchRuntime } from './benchRuntime.js';
import { median, round } from './benchStats.js';

/** The steps whose mean is the "early" marginal cost (the first few warm the JIT). */
const EARLY = { from: 10, to: 110 };
/** Late over early, to two decimals. */
const ratio = (late: number, early: number): number => Math.round((late / early) * 100) / 100;
/** The last steps whose mean is the "late" marginal cost. */
const LATE_COUNT = 100;
/**
 * Warm-up tasks run before the measured ones, so they time the runtime, not V8 compiling it: after
 * one task of 1,000 steps the next 1,000-step task still measured 140–240 µs a step, after 4,000
 * steps of warm-up 82–102 (same machine, docs/benchmarks.md). A serving process is warm this way.
 */
const WARM_UP = [1000, 3000];

/**
 * A model that never reads its input: it answers call k with the k-th scripted tool call (an
 * `echo` of a fresh value, so neither the read cache nor loop detection short-cuts it) and, after
 * `steps` calls, a final answer. Whatever the runtime spends per step is the runtime's own cost.
 * It stamps the time of every call (the gap between two calls is one whole step) and reads the
 * process CPU time only at the edges of the early and late windows: `process.cpuUsage()` is a
 * system call (getrusage), a few µs on a quiet machine and a point where a loaded one switches
 * threads, so reading it every call would time the instrument as part of each step.
 */
class ScriptedStepModel implements ModelProvider {
  readonly kind = 'bench';
  readonly model = 'bench-step';
  readonly stamps: bigint[] = [];
  /** Process CPU µs (user + system) at the calls that open or close a window, by call number. */
  readonly cpuAt = new Map<number, number>();
  private readonly echo = toWireName('echo');
  private readonly cpuEdges: ReadonlySet<number>;

  constructor(private readonly steps: number) {
    this.cpuEdges = new Set(cpuEdgeCalls(steps));
  }

  async complete(_request: ModelRequest): Promise<ModelResponse> {
    this.stamps.push(process.hrtime.bigint());
    const k = this.stamps.length;
    if (this.cpuEdges.has(k)) {
      const cpu = process.cpuUsage();
      this.cpuAt.set(k, cpu.user + cpu.system);
    }
    const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
    if (k > this.steps) return { text: 'done', toolCalls: [], usage, stopReason: 'end', model: this.model };
    const call = { id: `call_${k}`, name: this.echo, argumentsText: `{"value":${k}}` };
    return { text: '', toolCalls: [call], usage, stopReason: 'tool_calls', model: this.model };
  }
}

/**
 * Call numbers (1-based) whose CPU reading bounds a window: the first call, the early window's
 * edges, the late window's start and the final answer (call `steps + 1`). Gap i lies between
 * calls i + 1 and i + 2, so gaps [a, b) span calls a + 1 … b + 1.
 */
function cpuEdgeCalls(steps: number): number[] {
  const last = steps + 1;
  return [1, EARLY.from + 1, EARLY.to + 1, last - LATE_COUNT, last];
}

/** CPU figures from the edge readings, in the same windows as the wall ones. */
function cpuFigures(cpuAt: ReadonlyMap<number, number>, steps: number): ModelStepFigures['cpu'] {
  const [first, earlyFrom, earlyTo, lateFrom, last] = cpuEdgeCalls(steps).map((k) => cpuAt.get(k)!);
  const early = (earlyTo! - earlyFrom!) / (EARLY.to - EARLY.from);
  const late = (last! - lateFrom!) / LATE_COUNT;
  return {
    usPerStep: round((last! - first!) / steps),
    earlyUsPerStep: round(early),
    lateUsPerStep: round(late),
    lateOverEarly: ratio(late, early),
  };
}

/** Figures of one goal task of `steps` model-planned steps. */
export interface ModelStepFigures {
  steps: number;
  usPerStep: number;
  /** Mean µs of steps 10–110. */
  earlyUsPerStep: number;
  /** Mean µs of the last 100 steps. */
  lateUsPerStep: number;
  lateOverEarly: number;
  /** The same in process CPU time, which other load on the machine does not inflate. */
  cpu: { usPerStep: number; earlyUsPerStep: number; lateUsPerStep: number; lateOverEarly: number };
}

/** The bench's runtime (the product's assembly) and the scripted model of each goal task it runs. */
interface StepBench {
  rt: BenchRuntime['rt'];
  models: Map<string, ScriptedStepModel>;
}

/** Runs one goal task through the real engine and the real LLM planner; per-step times from the model's call stamps. */
async function timeModelSteps({ rt, models }: StepBench, steps: number): Promise<ModelStepFigures> {
  const model = new ScriptedStepModel(steps);
  const { task } = await rt.tasks.create({
    source: {
      kind: 'goal',
      goal: `Echo ${steps} values, then answer.`,
      checks: [{ type: 'file_exists', path: 'ready.txt', exists: true }],
    },
    requester: { kind: 'local' },
    title: 'bench model steps',
    budget: { maxSteps: steps + 10 },
  });
  writeFileSync(path.join(task.workspace, 'ready.txt'), 'ok');
  models.set(task.id, model);
  const started = process.hrtime.bigint();
  const done = await rt.engine.run(task.id);
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  models.delete(task.id);
  const completed = (await rt.store.steps.forTask(task.id)).filter((s) => s.status === 'completed').length;
  if (done.state !== 'succeeded' || completed !== steps || model.stamps.length !== steps + 1) {
    throw new Error(
      `bench task ended ${done.state} (${done.stateReason ?? ''}) with ${completed}/${steps} steps completed in ${model.stamps.length} model calls (expected ${steps + 1})`,
    );
  }
  const wall = marginal(model.stamps.slice(1).map((t, i) => Number(t - model.stamps[i]!) / 1000));
  return { steps, usPerStep: round(elapsedUs / steps), ...wall, cpu: cpuFigures(model.cpuAt, steps) };
}

/** A size's figures: each the median over its runs (late/early: of the two medians), and every run's own. */
type SizeFigures = ModelStepFigures & { repeats: Omit<ModelStepFigures, 'steps' | 'cpu'>[] };

function medianFigures(runs: readonly ModelStepFigures[]): SizeFigures {
  const of = (pick: (r: ModelStepFigures) => number) => round(median(runs.map(pick)));
  const [early, late, cpuEarly, cpuLate] = [
    of((r) => r.earlyUsPerStep),
    of((r) => r.lateUsPerStep),
    of((r) => r.cpu.earlyUsPerStep),
    of((r) => r.cpu.lateUsPerStep),
  ];
  return {
    steps: runs[0]!.steps,
    usPerStep: of((r) => r.usPerStep),
    earlyUsPerStep: early,
    lateUsPerStep: late,
    lateOverEarly: ratio(late, early),
    cpu: {
      usPerStep: of((r) => r.cpu.usPerStep),
      earlyUsPerStep: cpuEarly,
      lateUsPerStep: cpuLate,
      lateOverEarly: ratio(cpuLate, cpuEarly),
    },
    repeats: runs.map(({ usPerStep, earlyUsPerStep, lateUsPerStep, lateOverEarly }) => ({
      usPerStep,
      earlyUsPerStep,
      lateUsPerStep,
      lateOverEarly,
    })),
  };
}

/**
 * `bench step --planner model`: `runs` goal tasks of each size, after the warm-up tasks, all in one
 * runtime on one store, as a worker runs task after task (a fresh runtime per task timed its
 * connections' and caches' first use: steps 10–110 cost 2–4× the late ones).
 */
export async function benchModelSteps(sizes: readonly number[], runs = 1): Promise<Record<string, unknown>> {
  const bad = sizes.find((n) => !Number.isInteger(n) || n < EARLY.to + LATE_COUNT);
  if (bad !== undefined) {
    throw new AgentDeskError('invalid_params', `--steps sizes must be integers of at least ${EARLY.to + LATE_COUNT}, not ${bad}`);
  }
  if (!Number.isInteger(runs) || runs < 1)
    throw new AgentDeskError('invalid_params', `--runs must be a whole number of at least 1, not ${runs}`);
  const models = new Map<string, ScriptedStepModel>();
  // The product's assembly and goal planning (conversation saved per turn, model.call traced, metered, redacted); only the model is in-process.
  const { rt, dispose } = await openBenchRuntime('model', {
    model: {
      provider: (task) => {
        const model = models.get(task.id);
        if (!model) throw new AgentDeskError('bad_state', `bench: no scripted model for task ${task.id}`);
        return model;
      },
    },
  });
  try {
    const bench = { rt, models };
    for (const n of WARM_UP) await timeModelSteps(bench, n);
    const figures: SizeFigures[] = [];
    // No forced full collection between runs: it flushes compiled code and type feedback, and the
    // next ~1,500 steps ran at twice the cost while V8 warmed again (docs/benchmarks.md), which no
    // serving process pays; a worker's earlier tasks leave garbage that V8 collects as it goes.
    for (const n of sizes) {
      const timed: ModelStepFigures[] = [];
      for (let i = 0; i < runs; i++) timed.push(await timeModelSteps(bench, n));
      figures.push(medianFigures(timed));
    }
    return {
      planner: 'model',
      store: process.env.AGENT_DESK_DATABASE_URL ? 'postgres' : 'sqlite',
      path: 'the product assembly + goals module (LlmPlanner, saved conversation, model.call trace) + in-process model that never reads its input; tool: echo',
      runs: figures,
      runsPerSize: runs,
      early: `mean of steps ${EARLY.from}-${EARLY.to}`,
      late: `mean of the last ${LATE_COUNT} steps`,
      machine: benchMachine(),
    };
  } finally {
    await dispose();
  }
}

/** Mean µs of the early and of the late steps, and their ratio. */
function marginal(gaps: readonly number[]): { earlyUsPerStep: number; lateUsPerStep: number; lateOverEarly: number } {
  const early = mean(gaps.slice(EARLY.from, Math.min(EARLY.to, gaps.length)));
  const late = mean(gaps.slice(-LATE_COUNT));
  return { earlyUsPerStep: round(early), lateUsPerStep: round(late), lateOverEarly: ratio(late, early) };
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}
