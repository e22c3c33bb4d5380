import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AcceptanceCheckSchema, ModelRefSchema, SandboxModeSchema, type AcceptanceCheck, type Task } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import { AgentDeskError, describeIssues, issuesFromZod } from '../../runtime/errors.js';
import { pendingProposal, reviewChecks, waitsForReview } from '../../runtime/planning/llm/intentReview.js';
import { cliName } from '../cliName.js';

/** The `run` flags of a goal task. */
export interface GoalFlags {
  goal?: string;
  model?: string;
  checks?: string;
  acceptChecks?: boolean;
  /** `desktop`: the model works the task's desktop through its provider's computer-use protocol. */
  sandbox?: string;
  workspace?: string;
  json?: boolean;
}

const ChecksFileSchema = z.union([z.array(AcceptanceCheckSchema).min(1), z.object({ checks: z.array(AcceptanceCheckSchema).min(1) })]);

/** Reads `--checks file.json`: an array of acceptance checks, or `{"checks": [...]}`. */
export function readChecksFile(file: string): AcceptanceCheck[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AgentDeskError('invalid_params', `cannot read checks file ${file}: ${(error as Error).message}`);
  }
  const parsed = ChecksFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('invalid_params', `${file} holds no valid acceptance checks:\n${describeIssues(issues)}`, { issues });
  }
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.checks;
}

/** Creates a goal task from `--goal`, `--model` and `--checks`. */
export async function createGoalTask(rt: RuntimeCore, flags: GoalFlags): Promise<string> {
  const goal = flags.goal?.trim();
  if (!goal) throw new AgentDeskError('invalid_params', '--goal needs the text of the goal');
  if (flags.model !== undefined && !ModelRefSchema.safeParse(flags.model).success) {
    throw new AgentDeskError('invalid_params', `--model expects "provider:model" (e.g. "openai:gpt-4.1-mini"), got "${flags.model}"`);
  }
  const checks = flags.checks !== undefined ? readChecksFile(flags.checks) : undefined;
  const sandbox = flags.sandbox === undefined ? undefined : SandboxModeSchema.safeParse(flags.sandbox);
  if (sandbox && !sandbox.success)
    throw new AgentDeskError('invalid_params', `--sandbox expects desktop, auto or none, got "${flags.sandbox}"`);
  const { task } = await rt.tasks.create({
    source: { kind: 'goal', goal, ...(flags.model !== undefined && { model: flags.model }), ...(checks && { checks }) },
    requester: { kind: 'local' },
    ...(flags.workspace !== undefined && { workspace: flags.workspace }),
    ...(sandbox?.success && { sandbox: sandbox.data }),
  });
  return task.id;
}

/** `--resume <id>` with `--checks` or `--accept-checks`: settles a pending review before the run. */
export async function applyReviewFlags(rt: RuntimeCore, task: Task, flags: GoalFlags): Promise<void> {
  if (task.plan.kind !== 'goal' || (flags.checks === undefined && !flags.acceptChecks)) return;
  if (flags.checks !== undefined) return void (await reviewChecks(rt, task.id, readChecksFile(flags.checks)));
  const proposal = await pendingProposal(rt, task);
  if (!proposal) throw new AgentDeskError('conflict', `task ${task.id} has no proposed acceptance checks waiting for review`);
  await reviewChecks(rt, task.id, proposal);
}

/**
 * After a run stopped for intent review: `--accept-checks` accepts the proposal and runs on;
 * otherwise the proposal is printed and the task left waiting.
 */
export async function settleProposal(rt: RuntimeCore, task: Task, flags: GoalFlags, runAgain: () => Promise<Task>): Promise<Task> {
  if (!waitsForReview(task)) return task;
  const proposal = await pendingProposal(rt, task);
  if (!proposal) return task;
  if (flags.acceptChecks) {
    await reviewChecks(rt, task.id, proposal);
    return runAgain();
  }
  if (!flags.json) {
    console.log(`Proposed acceptance checks for ${task.id}:`);
    for (const check of proposal) console.log(`  ${JSON.stringify(check)}`);
    console.log(`accept them:   ${cliName()} run --resume ${task.id} --accept-checks`);
    console.log(`or edit them:  save a JSON array to a file, then ${cliName()} run --resume ${task.id} --checks <file>`);
  }
  return task;
}
