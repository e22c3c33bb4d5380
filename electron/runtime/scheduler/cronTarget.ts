import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AcceptanceCheck, Agent, CronJob, CronJobSpec } from '../../contract/index.js';
import type { AgentRuntime } from '../agentRuntime.js';
import type { TaskSpec } from '../engine/taskEngine.js';
import { AgentDeskError } from '../errors.js';
import { bindInputs, secretInputNames } from '../planning/playbook/inputs.js';
import { parsePlaybook, registryChecks } from '../planning/playbook/parse.js';

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
 * Builds the task a job would create now, without creating it: reads and validates the playbook,
 * binds inputs, resolves the agent. Anything broken throws, and costs no model call.
 */
export function buildCronTarget(
  rt: AgentRuntime,
  job: Pick<CronJobSpec, 'name' | 'target' | 'budget'>,
  agent: Agent | undefined,
): BuiltTarget {
  const budget = { ...rt.options.config.budget, ...agent?.budget, ...job.budget };
  // The agent travels on the task: its tool allowlist, policy profile and concurrency apply.
  const workspace = { ...(agent?.workspace !== undefined && { workspace: agent.workspace }), ...(agent && { agent: agent.name }) };
  const title = `${job.name} (cron)`;
  if (job.target.kind === 'goal') {
    const { goal, checks, model } = job.target;
    const plan = {
      kind: 'goal' as const,
      goal,
      ...(model !== undefined && { model }),
      ...(checks !== undefined && { acceptance: checks }),
    };
    return { spec: { title, plan, inputs: {}, budget, ...workspace }, startsServices: false, checks: checks ?? [] };
  }
  const file = job.target.path === undefined ? undefined : path.resolve(job.target.path);
  const source = job.target.source ?? readPlaybookFile(file!);
  const playbook = parsePlaybook(source, { ...registryChecks(rt.registry), ...(file && { source: file }) });
  if (secretInputNames(playbook).length > 0) {
    throw new AgentDeskError('invalid_params', `playbook "${playbook.name}" has secret inputs, which a cron job cannot supply unattended`);
  }
  const inputs = bindInputs(playbook, job.target.inputs);
  const baseDir = path.resolve(job.target.baseDir ?? (file ? path.dirname(file) : rt.options.home));
  return {
    spec: {
      title: `${playbook.name} (cron: ${job.name})`,
      plan: { kind: 'playbook', source, baseDir },
      inputs: inputs.values,
      budget: { ...budget, ...playbook.budget, ...job.budget },
      ...workspace,
    },
    startsServices: playbook.services.length > 0,
    checks: playbook.acceptance,
  };
}

/** The reason text for a blocked job. */
export const blockedReason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Looks up a job's agent; a job naming a missing agent is broken. */
export function agentOfJob(job: Pick<CronJob, 'agentId'>, find: (name: string) => Agent | undefined): Agent | undefined {
  if (job.agentId === undefined) return undefined;
  const agent = find(job.agentId);
  if (!agent)
    throw new AgentDeskError('not_found', `agent "${job.agentId}" does not exist; create it with agents.create or change the job`);
  return agent;
}
