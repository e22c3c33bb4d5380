import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { UncertainResolutionSchema, type Task } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { openRuntime } from '../openRuntime.js';
import { EXIT, parsePairs, printJson, reportError } from '../output.js';
import { askApprovalsInteractively, showProgress } from '../terminal.js';
import { pendingProposal } from '../../runtime/planning/llm/intentReview.js';
import { applyReviewFlags, createGoalTask, settleProposal, type GoalFlags } from './runGoal.js';
import { saveHealed, saveRecording } from './runRecord.js';
import { cliName } from '../cliName.js';

interface RunOptions extends GoalFlags {
  input: string[];
  json?: boolean;
  resume?: string;
  workspace?: string;
  onUncertain?: string;
  interactive?: boolean;
  record?: string;
}

/** `agent-desk run <playbook>`: runs a playbook to the end, or until it must wait. */
export function registerRun(program: Command): void {
  program
    .command('run [playbook]')
    .description('run a YAML playbook (or resume a task with --resume)')
    .option('-i, --input <key=value>', 'an input value (repeatable)', (v: string, all: string[]) => [...all, v], [])
    .option('--json', 'print the result as JSON')
    .option('--resume <taskId>', 'continue an interrupted, paused or waiting task')
    .option('--workspace <dir>', 'task workspace (default: a new folder under AGENT_DESK_HOME)')
    .option('--on-uncertain <choice>', 'settle an interrupted non-idempotent step: rerun | skip | fail')
    .option('--no-interactive', 'never prompt; leave approvals pending')
    .option('--goal <text>', 'run a goal with the LLM planner instead of a playbook')
    .option('--model <provider:model>', 'the model of a --goal task (default: models.defaultModel)')
    .option('--checks <file.json>', 'acceptance checks of a --goal task (or the reviewed ones with --resume)')
    .option('--accept-checks', 'accept the acceptance checks the model proposes and run on')
    .option('--sandbox <mode>', "a --goal task's desktop: desktop (computer use from the start) | auto | none")
    .option('--record <out.yaml>', 'when a --goal run succeeds, save it as a replayable playbook')
    .action(async (file: string | undefined, opts: RunOptions) => {
      const rt = await openRuntime();
      try {
        process.exitCode = await runCommand(rt, file, opts);
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      } finally {
        await rt.close();
      }
    });
}

async function runCommand(rt: RuntimeCore, file: string | undefined, opts: RunOptions): Promise<number> {
  const given = parsePairs(opts.input);
  const interactive = opts.interactive !== false && Boolean(process.stdin.isTTY && process.stdout.isTTY) && !opts.json;
  const resolution = opts.onUncertain === undefined ? undefined : UncertainResolutionSchema.parse(opts.onUncertain);
  let taskId: string;
  let secrets: Record<string, string>;
  if (opts.resume) {
    const task = await rt.engine.get(opts.resume);
    secrets = secretsFor(task, given);
    taskId = task.id;
    await applyReviewFlags(rt, task, opts);
  } else if (opts.goal !== undefined) {
    taskId = await createGoalTask(rt, opts);
    secrets = {};
  } else {
    if (!file) throw new AgentDeskError('invalid_params', 'give a playbook file, or --resume <taskId>');
    ({ taskId, secrets } = await createFromFile(rt, file, given, opts.workspace));
  }
  const progress = process.stderr.isTTY && !opts.json ? await showProgress(rt, taskId) : undefined;
  const stopProgress = () => progress?.stop();
  try {
    const stopPrompts = interactive
      ? await askApprovalsInteractively(
          rt,
          taskId,
          () => void stopAtPrompt(rt, taskId),
          () => progress?.spinner.clear(),
        )
      : () => undefined;
    try {
      await rt.store.tasks.requestControl(taskId, null);
      const runOnce = () => rt.engine.run(taskId, { secrets, detachOnApproval: !interactive, ...(resolution && { resolution }) });
      const task = await settleProposal(rt, await runOnce(), opts, runOnce);
      if (opts.record !== undefined) await saveRecording(rt, task, opts.record);
      else if (file !== undefined && !opts.resume && opts.goal === undefined) await saveHealed(rt, task, file);
      return await report(rt, task, Boolean(opts.json));
    } finally {
      stopPrompts();
    }
  } finally {
    stopProgress();
  }
}

/**
 * Ctrl-C at the approval prompt: the run only waits, so nothing is half done. The task keeps
 * waiting for its approval with no owner, the database is closed, and the process exits 130
 * (interrupted) at once — the run's wait would otherwise keep it alive.
 */
async function stopAtPrompt(rt: RuntimeCore, taskId: string): Promise<never> {
  try {
    await rt.store.tasks.release(taskId, rt.lease.id);
    process.stderr.write(`\nStopped. The task waits for its approval; continue with: ${cliName()} run --resume ${taskId}\n`);
    await rt.lease.close();
    await rt.store.close();
  } catch (error) {
    process.stderr.write(`\nagent-desk: ${(error as Error).message}\n`); // exits all the same: the user asked to stop
  }
  process.exit(130);
}

async function createFromFile(rt: RuntimeCore, file: string, given: Record<string, string>, workspace?: string) {
  const absolute = path.resolve(file);
  let source: string;
  try {
    source = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new AgentDeskError('not_found', `cannot read playbook ${file}: ${(error as Error).message}`);
  }
  const { task, secrets } = await rt.tasks.create({
    source: { kind: 'playbook', source, baseDir: path.dirname(absolute), file },
    requester: { kind: 'local' },
    inputs: given,
    env: process.env,
    ...(workspace !== undefined && { workspace }),
  });
  return { taskId: task.id, secrets };
}

/** Secret inputs are never stored: a resumed task needs them again (flag or environment). */
function secretsFor(task: Task, given: Record<string, string>): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(task.inputs)) {
    if (value !== `[secret:${name}]`) continue;
    const supplied = given[name] ?? process.env[`AGENT_DESK_INPUT_${name.toUpperCase()}`];
    if (supplied === undefined) {
      throw new AgentDeskError(
        'invalid_params',
        `secret input "${name}" is not stored; pass --input ${name}=… or set AGENT_DESK_INPUT_${name.toUpperCase()}`,
      );
    }
    secrets[name] = supplied;
  }
  return secrets;
}

async function report(rt: RuntimeCore, task: Task, json: boolean): Promise<number> {
  const steps = await rt.engine.steps(task.id);
  const pending = await rt.approvals.list({ taskId: task.id, status: 'pending' });
  if (json) {
    printJson({
      task: {
        id: task.id,
        title: task.title,
        state: task.state,
        stateReason: task.stateReason,
        usage: task.usage,
        workspace: task.workspace,
        ...(task.answer !== undefined && { answer: task.answer }),
      },
      checks: task.checks,
      steps: steps.map((s) => ({
        index: s.index,
        attempt: s.attempt,
        tool: s.tool,
        status: s.status,
        route: s.route?.reason,
        policy: s.policy?.effect,
        error: s.error,
        durationMs: s.durationMs,
      })),
      approvals: pending.map((a) => ({ id: a.id, tool: a.tool, summary: a.preview.summary, preview: a.preview.body })),
      proposedChecks: await pendingProposal(rt, task),
    });
  } else {
    console.log(`${task.id}  ${task.state}: ${task.stateReason ?? ''}`);
    for (const c of task.checks) console.log(`  ${c.passed ? 'PASS' : 'FAIL'}  ${c.name}: ${c.output}`);
    if (task.answer !== undefined) console.log(`\nAnswer:\n${task.answer}\n`);
    for (const a of pending) {
      console.log(`  waiting for approval ${a.id}: ${a.preview.summary}`);
      console.log(`  decide with: ${cliName()} approvals approve ${a.id}   then: ${cliName()} run --resume ${task.id}`);
    }
  }
  if (task.state === 'succeeded') return EXIT.ok;
  if (task.state === 'failed' || task.state === 'cancelled') return EXIT.failed;
  return EXIT.waiting;
}
