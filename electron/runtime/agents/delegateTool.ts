import path from 'node:path';
import { z } from 'zod';
import { AcceptanceCheckSchema, type Agent, type Task } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { AgentRepo } from '../store/agentRepo.js';
import { isTerminal } from '../engine/stateMachine.js';
import type { TaskSpec } from '../engine/taskEngine.js';
import { PROPOSABLE_CHECK_TYPES } from '../planning/llm/intent.js';
import type { TaskRequester } from '../tasks/createTask.js';
import { ToolError, type Tool, type ToolContext } from '../tools/types.js';
import type { AgentService } from './agentService.js';
import { agentChain, checkDelegation } from './delegation.js';

const ChildSchema = z
  .object({
    agent: z.string().min(1).max(64).describe('The agent to delegate to.'),
    goal: z.string().min(1).max(20_000).optional().describe('What the sub-agent should achieve.'),
    playbook: z.string().min(1).max(200_000).optional().describe('Playbook YAML the sub-agent runs instead of a goal.'),
    checks: z
      .array(AcceptanceCheckSchema)
      .max(20)
      .optional()
      .describe(
        `Goal children: acceptance checks that decide the child succeeded (${PROPOSABLE_CHECK_TYPES.join(', ')}). Without them the child waits for a person to review proposed checks.`,
      ),
    inputs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    title: z.string().max(200).optional(),
  })
  .strict()
  .refine((c) => (c.goal === undefined) !== (c.playbook === undefined), { message: 'give exactly one of goal or playbook' })
  // A model writes these: a command check would run a command on the host, so only a person may add one.
  .refine((c) => (c.checks ?? []).every((check) => (PROPOSABLE_CHECK_TYPES as readonly string[]).includes(check.type)), {
    message: `checks may only be of the types ${PROPOSABLE_CHECK_TYPES.join(', ')}`,
  })
  .refine((c) => c.checks === undefined || c.goal !== undefined, { message: 'checks go with a goal; a playbook has its own acceptance' });

/** Arguments of `agents.delegate`. */
export const DelegateInputSchema = z
  .object({
    children: z.array(ChildSchema).min(1).max(8).describe('Sub-tasks, run in parallel; the call returns when all have ended.'),
    timeoutMs: z.number().int().min(1000).max(86_400_000).default(600_000).describe('A child still running after this is cancelled.'),
  })
  .strict();
type DelegateArgs = z.output<typeof DelegateInputSchema>;
type ChildArgs = DelegateArgs['children'][number];

/** One child's outcome, as the parent sees it. */
interface ChildOutcome {
  taskId: string;
  agent: string;
  state: Task['state'];
  reason?: string;
  checks: { name: string; passed: boolean }[];
}

/** A model asks for the child: it holds no admin scope, so its playbook may start no services and carry no command check. */
const MODEL_REQUESTER: TaskRequester = { kind: 'client', scopes: ['operator.read', 'operator.write'], method: 'agents.delegate' };

async function childSpec(rt: RuntimeCore, agent: Agent, child: ChildArgs): Promise<TaskSpec> {
  // The child runs as its agent: the agent's tool allowlist, policy profile and budget govern its calls.
  const shared = {
    requester: MODEL_REQUESTER,
    agent: agent.name,
    ...(agent.workspace !== undefined && { workspace: agent.workspace }),
  };
  if (child.goal !== undefined) {
    const built = await rt.tasks.build({
      ...shared,
      source: { kind: 'goal', goal: child.goal, ...(child.checks && { checks: child.checks }) },
      title: child.title ?? `${agent.name}: ${child.goal.slice(0, 80)}`,
    });
    return built.spec;
  }
  const built = await rt.tasks.build({
    ...shared,
    source: { kind: 'playbook', source: child.playbook!, baseDir: path.resolve(rt.home) },
    ...(child.inputs && { inputs: child.inputs }),
    unattended: 'a sub-agent',
    ...(child.title !== undefined && { title: child.title }),
  });
  return child.title !== undefined ? built.spec : { ...built.spec, title: `${agent.name}: ${built.spec.title}` };
}

/**
 * `agents.delegate`: starts one child task per entry, each as its agent with its own budget and
 * workspace, runs them in parallel while the parent waits, and succeeds only when every child
 * succeeded (its own acceptance checks passed). Children are found again by the call's
 * idempotency key, so a re-run after a crash waits for the same children instead of new ones.
 */
export function delegateTool(rt: RuntimeCore, agents: AgentService): Tool<DelegateArgs> {
  const clock = rt.clock;

  const startOrFind = async (
    ctx: ToolContext,
    child: ChildArgs,
    index: number,
    chain: string[],
  ): Promise<{ taskId: string; agent: string }> => {
    const callKey = `${ctx.idempotencyKey}#${index}`;
    const earlier = await agents.repo.delegation(ctx.taskId, callKey);
    if (earlier) return { taskId: earlier.childTaskId, agent: earlier.agent };
    checkDelegation(chain, child.agent);
    const agent = await agents.repo.get(child.agent);
    if (!agent) throw new ToolError(`no agent "${child.agent}" to delegate to; define it with agents.create`, false, 'not_found');
    const spec = await childSpec(rt, agent, child);
    // The child, its parent link, the delegation record and both trace events land together or not at all.
    return rt.store.transaction(async (tx) => {
      const task = await rt.engine.create(spec, tx);
      await tx.tasks.setParent(task.id, ctx.taskId);
      await new AgentRepo(tx.sql).recordDelegation(
        { parentTaskId: ctx.taskId, callKey, childTaskId: task.id, agent: agent.name },
        new Date(clock.now()).toISOString(),
      );
      const started = { childTaskId: task.id, agent: agent.name, title: task.title };
      await rt.trace.append(ctx.taskId, 'delegation.started', started, ctx.stepId, tx.trace);
      await rt.trace.append(task.id, 'delegation.started', { parentTaskId: ctx.taskId, agent: agent.name }, undefined, tx.trace);
      return { taskId: task.id, agent: agent.name };
    });
  };

  const runChild = async (taskId: string, timeoutMs: number, signal: AbortSignal): Promise<Task> => {
    const current = await rt.engine.get(taskId);
    if (isTerminal(current.state)) return current;
    const limit = childTimeLimit(current, timeoutMs);
    const timer = new AbortController();
    const stop = () => timer.abort();
    signal.addEventListener('abort', stop, { once: true });
    const timeout = clock.sleep(limit.ms, timer.signal).then(
      () => 'timeout' as const,
      () => 'aborted' as const,
    );
    const run = rt.engine.isRunningHere(taskId) ? waitUntilIdle(rt, taskId) : rt.engine.run(taskId, { detachOnApproval: false });
    const first = await Promise.race([run.then(() => 'done' as const), timeout]);
    if (first !== 'done') {
      const task = await rt.engine.get(taskId);
      const reason = first === 'timeout' ? limit.reason : 'the parent task was stopped';
      if (!isTerminal(task.state)) await rt.engine.cancel(taskId, `sub-agent ${reason}`);
      await run.catch(() => undefined);
    }
    timer.abort();
    signal.removeEventListener('abort', stop);
    return await rt.engine.get(taskId);
  };

  return {
    name: 'agents.delegate',
    title: 'Delegate to sub-agents',
    description:
      'Starts child tasks for other agents (each with its own budget and workspace), runs them in parallel, and waits. Fails unless every child succeeds.',
    tier: 'api',
    capabilities: ['agents.delegate'],
    // Each child's own calls pass the policy gate; starting them touches nothing outside the runtime.
    risk: 'write',
    readOnly: false,
    idempotent: true,
    input: DelegateInputSchema as z.ZodType<DelegateArgs>,
    classify: (args) => ({
      risks: ['write'],
      subject: `agents:${args.children.map((c) => c.agent).join(',')}`,
      readOnly: false,
      idempotent: true,
      insideWorkspace: true,
      preview: { summary: `Delegate to ${args.children.map((c) => c.agent).join(', ')}` },
    }),
    availability: () => ({ available: true }),
    execute: async (args, ctx) => {
      const chain = await agentChain(rt.store, ctx.taskId);
      // One after another, as before: a child that cannot start stops the ones after it.
      const started: { taskId: string; agent: string }[] = [];
      for (const [i, child] of args.children.entries()) started.push(await startOrFind(ctx, child, i, chain));
      const ended = await Promise.all(started.map((c) => runChild(c.taskId, args.timeoutMs, ctx.signal)));
      const outcomes: ChildOutcome[] = ended.map((task, i) => ({
        taskId: task.id,
        agent: started[i]!.agent,
        state: task.state,
        ...(task.stateReason !== undefined && { reason: task.stateReason }),
        checks: task.checks.map((c) => ({ name: c.name, passed: c.passed })),
      }));
      await rt.trace.append(ctx.taskId, 'delegation.finished', { children: outcomes }, ctx.stepId);
      const failed = outcomes.filter((o) => o.state !== 'succeeded');
      if (failed.length > 0) {
        const list = failed.map((o) => `${o.agent} (${o.taskId}) ${o.state}${o.reason ? `: ${o.reason}` : ''}`).join('; ');
        throw new ToolError(
          `${failed.length} of ${outcomes.length} sub-agent task(s) did not succeed: ${list}`,
          false,
          'delegation_failed',
        );
      }
      return { children: outcomes };
    },
  };
}

/**
 * How long the parent waits for a child: the call's `timeoutMs`, or less when the child's own
 * wall-time budget runs out first (the engine checks that budget only between steps, so a call
 * that hangs would otherwise outlive it).
 */
function childTimeLimit(child: Task, timeoutMs: number): { ms: number; reason: string } {
  const budgetLeft = Math.max(0, child.budget.maxWallMs - child.usage.wallMs);
  if (budgetLeft < timeoutMs) return { ms: budgetLeft, reason: `exceeded its wall-time budget of ${child.budget.maxWallMs} ms` };
  return { ms: timeoutMs, reason: `timed out after ${timeoutMs} ms` };
}

async function waitUntilIdle(rt: RuntimeCore, taskId: string): Promise<Task> {
  while (rt.engine.isRunningHere(taskId)) await new Promise((r) => setTimeout(r, 20));
  return await rt.engine.get(taskId);
}
