import type { SqlSession } from '../store/sql/sqlPort.js';
import { wildcardToRegExp } from './wildcard.js';

/** What the gate needs to know about an agent: its tool allowlist and policy profile. */
export interface AgentPolicy {
  name: string;
  /** Tool-name wildcards (`*` only); `*` alone allows every tool. */
  tools: readonly string[];
  policyProfile?: string;
}

/** The agent and profile a task runs with, as recorded on the task. */
export interface TaskPolicyOptions {
  agent?: string;
  policyProfile?: string;
}

/**
 * Looks up tasks and agents for the gate (the store implements it). Read at every decision, so
 * an edited agent or profile applies from the next step on.
 */
export interface TaskPolicyLookup {
  task(taskId: string): Promise<TaskPolicyOptions | undefined>;
  /** A task's agent and profile as its claim read them (fixed once it runs), so `task` reads nothing. */
  remember?(taskId: string, options: TaskPolicyOptions): void;
  /**
   * `within`: the session of a transaction the caller holds (a task created inside one), read
   * instead of the store's own, which would wait for that transaction.
   */
  agent(name: string, within?: SqlSession): Promise<AgentPolicy | undefined>;
}

/** A lookup for runtimes without agents (unit tests of the gate): every task uses the default rules. */
export const NO_AGENTS: TaskPolicyLookup = { task: () => Promise.resolve(undefined), agent: () => Promise.resolve(undefined) };

/** An agent's tool allowlist, compiled: which tool names the agent may be offered and call. */
export class ToolAllowlist {
  private readonly patterns: RegExp[];

  constructor(readonly agent: AgentPolicy) {
    this.patterns = agent.tools.map((p) => wildcardToRegExp(p));
  }

  permits(tool: string): boolean {
    return this.patterns.some((p) => p.test(tool));
  }

  /** The reason a call outside the allowlist is denied, naming the agent and the tool. */
  refusal(tool: string): string {
    const allowed = this.agent.tools.length === 0 ? 'none' : this.agent.tools.join(', ');
    return `agent "${this.agent.name}" may not use tool "${tool}": it is not in the agent's tool allowlist (${allowed})`;
  }
}

/** How a task's calls are governed: its agent's allowlist (if any) and the profile whose rules apply. */
export type TaskPolicy =
  | { ok: true; allowlist?: ToolAllowlist; profile?: string }
  | { ok: false; source: 'agent' | 'profile'; reason: string; agent?: string; profile?: string };

/**
 * Resolves a task's agent and profile: `task.policyProfile` ?? the agent's `policyProfile` ??
 * the default rules. A task whose agent was deleted, or whose profile the config does not
 * define, gets a refusal (fail closed) rather than the default rules.
 */
export async function resolveTaskPolicy(
  options: TaskPolicyOptions,
  lookup: TaskPolicyLookup,
  profiles: ReadonlySet<string>,
  within?: SqlSession,
): Promise<TaskPolicy> {
  const agent = options.agent === undefined ? undefined : await lookup.agent(options.agent, within);
  if (options.agent !== undefined && agent === undefined) {
    return {
      ok: false,
      source: 'agent',
      agent: options.agent,
      reason: `the task runs as agent "${options.agent}", which no longer exists`,
    };
  }
  const profile = options.policyProfile ?? agent?.policyProfile;
  if (profile !== undefined && !profiles.has(profile)) {
    return { ok: false, source: 'profile', profile, ...(agent && { agent: agent.name }), reason: unknownProfile(profile, profiles) };
  }
  return { ok: true, ...(agent && { allowlist: allowlistOf(agent) }), ...(profile !== undefined && { profile }) };
}

/** Compiled allowlists, reused while the lookup hands out the same agent object. */
const compiled = new WeakMap<AgentPolicy, ToolAllowlist>();
function allowlistOf(agent: AgentPolicy): ToolAllowlist {
  let allowlist = compiled.get(agent);
  if (!allowlist) compiled.set(agent, (allowlist = new ToolAllowlist(agent)));
  return allowlist;
}

/** The message for a profile the config does not define, listing those it does. */
export function unknownProfile(profile: string, profiles: ReadonlySet<string>): string {
  const known = profiles.size === 0 ? 'none are defined' : `defined: ${[...profiles].sort().join(', ')}`;
  return `unknown policy profile "${profile}" (config policy.profiles: ${known})`;
}
