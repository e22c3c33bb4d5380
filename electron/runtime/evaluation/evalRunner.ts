import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Task } from '../../contract/index.js';
import type { RuntimeCore, RuntimeHandle } from '../core/runtimeCore.js';
import { systemClock } from '../clock.js';
import { AgentDeskError } from '../errors.js';
import type { PriceTable } from '../models/pricing.js';
import { createProvider } from '../models/providerFactory.js';
import { ScriptedProvider } from '../models/scriptedProvider.js';
import type { ModelProvider } from '../models/types.js';
import type { InProcessModel } from '../planning/llm/goalsModule.js';
import type { LlmPlanner } from '../planning/llm/llmPlanner.js';
import { toWireName } from '../planning/llm/toolCatalog.js';
import { summarize, type EvalReport, type EvalTaskResult } from './evalReport.js';
import type { EvalTask } from './evalTask.js';
import { failureTypeOf } from './failureType.js';
import { loadSuite } from './loadSuite.js';

/** Approval rounds before an eval task counts as stuck. */
const MAX_APPROVAL_ROUNDS = 20;

/**
 * Opens the product's runtime over a data folder, its goal tasks planned by the given
 * in-process model (the CLI passes `openRuntime`): the eval runs the assembly that ships.
 */
export type OpenEvalRuntime = (home: string, model: InProcessModel) => Promise<RuntimeHandle>;

/** Runs every task of a suite folder, each in its own fresh runtime and SQLite file. */
export async function runEvalSuite(dir: string, open: OpenEvalRuntime, env: NodeJS.ProcessEnv = process.env): Promise<EvalReport> {
  const { suite, tasks } = loadSuite(dir);
  const results: EvalTaskResult[] = [];
  for (const task of tasks) results.push(await runEvalTask(task, suite.prices, open, env));
  return summarize(suite.name, results);
}

/** Runs one eval task to its end, answering approvals as the task says. */
export async function runEvalTask(
  spec: EvalTask,
  prices: PriceTable,
  open: OpenEvalRuntime,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EvalTaskResult> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-eval-'));
  // The suite's prices as a user sets them: in the data folder's config.json.
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ models: { prices } }, null, 2));
  let planner: LlmPlanner | undefined;
  const provider = providerFor(spec, env);
  const rt = await open(home, { provider: () => provider, onPlanner: (_task, p) => (planner = p) });
  try {
    const { task: created } = await rt.tasks.create({
      source: { kind: 'goal', goal: spec.goal, checks: spec.acceptance },
      requester: { kind: 'local' },
      title: spec.name,
      ...(spec.budget && { budget: spec.budget }),
    });
    writeFiles(created.workspace, spec.files);
    let task = await rt.engine.run(created.id, { detachOnApproval: true });
    for (let round = 0; task.state === 'waiting_approval' && round < MAX_APPROVAL_ROUNDS; round++) {
      for (const approval of await rt.approvals.list({ taskId: task.id, status: 'pending' })) {
        await rt.approvals.decide(
          approval.id,
          { decision: spec.approvals, remember: 'once', reason: `eval answers ${spec.approvals}` },
          'eval',
        );
      }
      task = await rt.engine.run(task.id, { detachOnApproval: true });
    }
    return await resultOf(spec, task, rt, {
      cachedPromptTokens: await cachedTokensOf(rt, task.id),
      malformed: planner ? sumValues(planner.malformed) : 0,
      cacheHits: planner?.cacheHits ?? 0,
    });
  } finally {
    await rt.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Cached prompt tokens, from the task's own `model.call` records. */
async function cachedTokensOf(rt: RuntimeCore, taskId: string): Promise<number> {
  let total = 0;
  for (
    let after = 0, page = await rt.store.trace.page(taskId, 0, 500);
    page.length > 0;
    page = await rt.store.trace.page(taskId, after, 500)
  ) {
    for (const event of page) if (event.type === 'model.call') total += Number(event.data.tokensCached ?? 0);
    after = page[page.length - 1]!.seq;
  }
  return total;
}

async function resultOf(
  spec: EvalTask,
  task: Task,
  rt: RuntimeCore,
  extra: { cachedPromptTokens: number; malformed: number; cacheHits: number },
): Promise<EvalTaskResult> {
  const denied = (await rt.store.steps.forTask(task.id)).filter((s) => s.status === 'denied').length;
  const failureType = failureTypeOf(task, denied);
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
    approvalsAsked: (await rt.approvals.list({ taskId: task.id })).length,
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
