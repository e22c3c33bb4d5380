import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigSchema, type Task } from '../../contract/index.js';
import { AgentRuntime } from '../agentRuntime.js';
import { systemClock } from '../clock.js';
import { AgentDeskError } from '../errors.js';
import type { PriceTable } from '../models/pricing.js';
import { createProvider } from '../models/providerFactory.js';
import { ScriptedProvider } from '../models/scriptedProvider.js';
import type { ModelProvider } from '../models/types.js';
import { withLlmGoals } from '../planning/llm/goalPlans.js';
import type { LlmPlanner } from '../planning/llm/llmPlanner.js';
import { toWireName } from '../planning/llm/toolCatalog.js';
import { summarize, type EvalReport, type EvalTaskResult } from './evalReport.js';
import type { EvalTask } from './evalTask.js';
import { failureTypeOf } from './failureType.js';
import { loadSuite } from './loadSuite.js';

/** Approval rounds before an eval task counts as stuck. */
const MAX_APPROVAL_ROUNDS = 20;

/** Runs every task of a suite folder, each in its own fresh runtime and SQLite file. */
export async function runEvalSuite(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<EvalReport> {
  const { suite, tasks } = loadSuite(dir);
  const results: EvalTaskResult[] = [];
  for (const task of tasks) results.push(await runEvalTask(task, suite.prices, env));
  return summarize(suite.name, results);
}

/** Runs one eval task to its end, answering approvals as the task says. */
export async function runEvalTask(spec: EvalTask, prices: PriceTable, env: NodeJS.ProcessEnv = process.env): Promise<EvalTaskResult> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-eval-'));
  let cachedPromptTokens = 0;
  let planner: LlmPlanner | undefined;
  const provider = providerFor(spec, env);
  let runtime: AgentRuntime | undefined;
  runtime = new AgentRuntime({
    home,
    config: ConfigSchema.parse({}),
    pollMs: 20,
    retryBackoffMs: 5,
    plans: withLlmGoals({
      registry: () => runtime!.registry,
      redactor: () => runtime!.redactor,
      provider: () => provider,
      acceptance: () => spec.acceptance,
      prices,
      onPlanner: (_task, p) => (planner = p),
      onModelCall: (call) => (cachedPromptTokens += call.usage.cachedInputTokens),
    }),
  });
  const rt = runtime;
  try {
    const created = rt.engine.create({
      title: spec.name,
      plan: { kind: 'goal', goal: spec.goal },
      inputs: {},
      ...(spec.budget && { budget: spec.budget }),
    });
    writeFiles(created.workspace, spec.files);
    let task = await rt.engine.run(created.id, { detachOnApproval: true });
    for (let round = 0; task.state === 'waiting_approval' && round < MAX_APPROVAL_ROUNDS; round++) {
      for (const approval of rt.approvals.list({ taskId: task.id, status: 'pending' })) {
        rt.approvals.decide(approval.id, { decision: spec.approvals, remember: 'once', reason: `eval answers ${spec.approvals}` }, 'eval');
      }
      task = await rt.engine.run(task.id, { detachOnApproval: true });
    }
    return resultOf(spec, task, rt, {
      cachedPromptTokens,
      malformed: planner ? sumValues(planner.malformed) : 0,
      cacheHits: planner?.cacheHits ?? 0,
    });
  } finally {
    await rt.close();
    rmSync(home, { recursive: true, force: true });
  }
}

function resultOf(
  spec: EvalTask,
  task: Task,
  rt: AgentRuntime,
  extra: { cachedPromptTokens: number; malformed: number; cacheHits: number },
): EvalTaskResult {
  const failureType = failureTypeOf(task, rt.store.steps.forTask(task.id).filter((s) => s.status === 'denied').length);
  return {
    name: spec.name,
    state: task.state,
    expected: spec.expect,
    passed: task.state === spec.expect,
    ...(task.stateReason && { reason: task.stateReason }),
    ...(failureType && { failureType }),
    steps: task.usage.steps,
    modelCalls: task.usage.modelCalls,
    promptTokens: task.usage.tokensIn,
    cachedPromptTokens: extra.cachedPromptTokens,
    outputTokens: task.usage.tokensOut,
    costUsd: Math.round(task.usage.costUsd * 1e8) / 1e8,
    approvalsAsked: rt.approvals.list({ taskId: task.id }).length,
    malformedCalls: extra.malformed,
    cacheHits: extra.cacheHits,
  };
}

/** A scripted task plays its script; a `model:` task calls a real endpoint with the key from the environment. */
function providerFor(spec: EvalTask, env: NodeJS.ProcessEnv): ModelProvider {
  if (spec.script) {
    return new ScriptedProvider(
      spec.script.map((turn) => ({
        ...(turn.text !== undefined && { text: turn.text }),
        calls: (turn.calls ?? []).map((c) => ({ name: toWireName(c.tool), arguments: c.rawArgs ?? c.args ?? {} })),
      })),
    );
  }
  const model = spec.model!;
  const apiKey = model.apiKeyEnv ? env[model.apiKeyEnv] : undefined;
  if (model.apiKeyEnv && !apiKey)
    throw new AgentDeskError('invalid_params', `eval task ${spec.name}: environment variable ${model.apiKeyEnv} is not set`);
  return createProvider(
    { provider: model.provider, model: model.model, ...(model.baseURL && { baseURL: model.baseURL }), ...(apiKey && { apiKey }) },
    systemClock,
  );
}

function writeFiles(workspace: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    const target = path.resolve(workspace, relative);
    if (!target.startsWith(workspace + path.sep))
      throw new AgentDeskError('invalid_params', `eval file path escapes the workspace: ${relative}`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

const sumValues = (o: Record<string, number>): number => Object.values(o).reduce((a, b) => a + b, 0);
