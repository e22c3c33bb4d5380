import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AcceptanceCheck, Agent, CronJob, CronJobSpec } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import type { TaskSpec } from '../engine/taskEngine.js';
import { AgentDeskError } from '../errors.js';
import type { TaskRequester } from '../tasks/createTask.js';

/** A task spec built from a job, plus whether its playbook starts local services. */
export interface BuiltTarget {
  spec: TaskSpec;
  startsServices: boolean;
  /** The acceptance checks the job's tasks will carry (a goal's checks, a playbook's acceptance). */
  checks: readonly AcceptanceCheck[];
}

function readPlaybookFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new AgentDeskError('not_found', `cannot read playbook ${file}: ${(error as Error).message}`);
  }
}

/**
 * Builds the task a job would create now, without creating it, through the one task service:
 * reads and validates the playbook, binds inputs, merges budgets (config, agent, playbook, job).
 * Anything broken throws, and costs no model call. `requester`: a client adding the job over
 * RPC is admitted by its scopes; a firing job was admitted when it was added.
 */
export async function buildCronTarget(
  rt: Pick<RuntimeCore, 'home' | 'tasks'>,
  job: Pick<CronJobSpec, 'name' | 'target' | 'budget'>,
  agent: Agent | undefined,
  requester: TaskRequester = { kind: 'local' },
): Promise<BuiltTarget> {
  const shared = {
    requester,
    unattended: 'a cron job',
    ...(job.budget && { budget: job.budget }),
    // The agent travels on the task: its tool allowlist, policy profile, budget and concurrency apply.
    ...(agent && { agent: agent.name }),
    ...(agent?.workspace !== undefined && { workspace: agent.workspace }),
  };
  if (job.target.kind === 'goal') {
    const { goal, checks, model } = job.target;
    const source = { kind: 'goal' as const, goal, ...(model !== undefined && { model }), ...(checks !== undefined && { checks }) };
    return rt.tasks.build({ ...shared, source, title: `${job.name} (cron)` });
  }
  const file = job.target.path === undefined ? undefined : path.resolve(job.target.path);
  const text = job.target.source ?? readPlaybookFile(file!);
  const baseDir = path.resolve(job.target.baseDir ?? (file ? path.dirname(file) : rt.home));
  const built = await rt.tasks.build({
    ...shared,
    source: { kind: 'playbook', source: text, baseDir, ...(file && { file }) },
    inputs: job.target.inputs,
  });
  return { ...built, spec: { ...built.spec, title: `${built.spec.title} (cron: ${job.name})` } };
}

/** What firing a job creates, built before its transaction: the task, or why the job is broken. */
export type FireTarget = { built: BuiltTarget } | { broken: unknown };

/** Builds the task a job would create now; a broken job (missing agent or playbook…) yields why instead of throwing. */
export async function fireTarget(
  rt: Pick<RuntimeCore, 'home' | 'tasks'>,
  job: CronJob,
  find: (name: string) => Promise<Agent | undefined>,
): Promise<FireTarget> {
  try {
    return { built: await buildCronTarget(rt, job, await agentOfJob(job, find)) };
  } catch (error) {
    return { broken: error };
  }
}

/** The reason text for a blocked job. */
export const blockedReason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Looks up a job's agent; a job naming a missing agent is broken. */
export async function agentOfJob(
  job: Pick<CronJob, 'agentId'>,
  find: (name: string) => Promise<Agent | undefined>,
): Promise<Agent | undefined> {
  if (job.agentId === undefined) return undefined;
  const agent = await find(job.agentId);
  if (!agent)
    throw new AgentDeskError('not_found', `agent "${job.agentId}" does not exist; create it with agents.create or change the job`);
  return agent;
}
