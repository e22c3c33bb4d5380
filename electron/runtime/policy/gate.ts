import { combinedRule, grantHolds, type GrantCandidate } from './approvalRules.js';
import type { PolicyConfig, PolicyDecision, RiskClass, Remember, Scope, ServerText, Task } from '../../contract/index.js';
import { AgentDeskError, describeIssues } from '../errors.js';
import type { SqlSession } from '../store/sql/sqlPort.js';
import type { CallClassification } from '../tools/types.js';
import { defaultDecision } from './defaults.js';
import { collectHostPatterns, compileHostPatterns, type HostPattern } from './hostPattern.js';
import { type CompiledRules, collectRules, evaluateRules, type RuleCall, type RuleMatch } from './ruleEngine.js';
import { NO_AGENTS, resolveTaskPolicy, type TaskPolicyLookup, type TaskPolicyOptions } from './taskPolicy.js';
import { extend } from '../extend.js';

/** How far a remembered approval reaches: this task, or this tool + subject in every task. */
export type GrantScope = 'task' | 'always';

/** The call a remembered approval is looked up for. */
export interface GrantQuery {
  taskId: string;
  tool: string;
  /** The classification's subject, as recorded on the approval. */
  subject: string;
}

/**
 * Remembered approvals (the store implements it): `task` grants match the same task, tool and
 * subject; `always` grants match the tool and subject in any task.
 */
export interface GrantLookup {
  findGrant(query: GrantQuery): Promise<readonly GrantCandidate[]>;
}

/** One call to decide on. */
export interface DecideInput {
  taskId: string;
  tool: string;
  classification: CallClassification;
  /** Scopes of whoever the task acts for; none when absent. */
  scopes?: readonly Scope[];
  /** Extra hosts this task may reach without asking (e.g. its playbook's own local services). */
  networkAllow?: readonly string[];
}

/** Narrows a task's calls beyond its agent's allowlist (the skills it has in use): why a call is refused, else undefined. */
export interface CallNarrowing {
  refusal(taskId: string, call: RuleCall): Promise<string | undefined>;
  /** This process takes up the task: what it kept of the task's record is read again (`neverRan`: there is nothing to read). */
  reload(taskId: string, neverRan?: boolean): void;
}

const NO_NARROWING: CallNarrowing = { refusal: () => Promise.resolve(undefined), reload: () => undefined };

type Verdict = Pick<PolicyDecision, 'effect' | 'source' | 'reason' | 'reasonTexts' | 'rule'>;

/**
 * Decides allow / ask / deny for a classified tool call: first the task's agent (a tool outside
 * its allowlist is denied) and the skills it has in use (a tool outside their `allowed-tools`
 * is denied), then, with the rules of the task's policy profile (or the default
 * rules): deny rules, the binding defaults (payments always ask, secrets need their scope), ask
 * rules, allow rules, remembered approvals, and finally the default risk rules.
 */
export class PolicyGate {
  // Tool output is untrusted, so nothing here reads it: a call cannot grant itself permissions.
  private rules!: CompiledRules;
  private profiles = new Map<string, CompiledRules>();
  private profileSet!: ReadonlySet<string>;
  private networkAllow!: readonly HostPattern[];
  private approvalRules: PolicyConfig['approvals'] = {};

  /** Compiles the config; throws `invalid_params` listing every bad rule and host at once. */
  constructor(
    config: PolicyConfig,
    private readonly grants: GrantLookup,
    private readonly tasks: TaskPolicyLookup = NO_AGENTS,
    private readonly narrowing: CallNarrowing = NO_NARROWING,
  ) {
    this.reload(config);
  }

  /**
   * Replaces the policy (Settings saved over RPC): every decision from now on uses it, so a
   * new task — and a running one's next step — needs no restart. A bad config changes nothing.
   */
  reload(config: PolicyConfig): void {
    const rules = collectRules(config.rules);
    const hosts = collectHostPatterns(config.networkAllow, 'networkAllow');
    const issues = [...rules.issues, ...hosts.issues];
    const profiles = new Map<string, CompiledRules>();
    for (const [name, profileRules] of Object.entries(config.profiles ?? {})) {
      const profile = collectRules(profileRules);
      issues.push(...profile.issues.map((i) => ({ ...i, path: `profiles.${name}.${i.path.replace(/^rules\./, '')}` })));
      profiles.set(name, profile.compiled);
    }
    if (issues.length > 0) {
      throw new AgentDeskError('invalid_params', `Invalid policy config:\n${describeIssues(issues)}`, { issues });
    }
    this.rules = rules.compiled;
    this.profiles = profiles;
    this.networkAllow = hosts.compiled;
    this.profileSet = new Set(profiles.keys());
    this.approvalRules = config.approvals ?? {};
  }

  /** The configured hosts checks and tools may reach (`policy.networkAllow`), as compiled now. */
  configuredNetworkAllow(): readonly HostPattern[] {
    return this.networkAllow;
  }

  /** This process now runs the task: what the gate keeps of the task's record (skills in use) is read again. */
  taskClaimed(task: Pick<Task, 'id' | 'state' | 'usage' | 'agent' | 'policyProfile'>): void {
    // A task that never ran has no skill reads to look up.
    this.narrowing.reload(task.id, task.state === 'queued' && task.usage.steps === 0);
    this.tasks.remember?.(task.id, {
      ...(task.agent !== undefined && { agent: task.agent }),
      ...(task.policyProfile !== undefined && { policyProfile: task.policyProfile }),
    });
  }

  /**
   * The decision for one call, in the contract's PolicyDecision shape. An `ask` carries who must
   * agree (`policy.approvals` for its risks); one that needs several people is never remembered,
   * so one person's grant cannot stand in for the others next time.
   */
  async decide(input: DecideInput): Promise<PolicyDecision> {
    const decision = await this.decideEffect(input);
    if (decision.effect !== 'ask') return decision;
    const approvalRule = combinedRule(this.approvalRules, decision.risks);
    if (!approvalRule) return decision;
    return { ...decision, approvalRule, rememberable: decision.rememberable && approvalRule.approvers === 1 };
  }

  private async decideEffect(input: DecideInput): Promise<PolicyDecision> {
    const risks = [...input.classification.risks];
    const policy = await resolveTaskPolicy((await this.tasks.task(input.taskId)) ?? {}, this.tasks, this.profileNames());
    if (!policy.ok) {
      const { source, reason, agent, profile } = policy;
      return { effect: 'deny', source, reason, risks, rememberable: false, ...(agent && { agent }), ...(profile && { profile }) };
    }
    const agent = policy.allowlist?.agent.name;
    const tags = { ...(agent !== undefined && { agent }), ...(policy.profile !== undefined && { profile: policy.profile }) };
    if (policy.allowlist && !policy.allowlist.permits(input.tool)) {
      const { name, tools } = policy.allowlist.agent;
      const reasonTexts = [
        {
          code: 'policy.agentToolNotAllowed',
          params: { agent: name, tool: input.tool, allowed: tools.length ? tools.join(', ') : 'none' },
        },
      ];
      return {
        effect: 'deny',
        source: 'agent',
        reason: policy.allowlist.refusal(input.tool),
        reasonTexts,
        risks,
        rememberable: false,
        ...tags,
      };
    }
    const { subject, host } = input.classification;
    const narrowed = await this.narrowing.refusal(input.taskId, { tool: input.tool, subject, ...(host !== undefined && { host }) });
    if (narrowed !== undefined) return { effect: 'deny', source: 'skill', reason: narrowed, risks, rememberable: false, ...tags };
    const rules = policy.profile === undefined ? this.rules : this.profiles.get(policy.profile)!;
    return extend(await this.verdict(input, rules), { risks, rememberable: !risks.includes('payment'), ...tags });
  }

  /**
   * Which tools a task may be offered: undefined when it runs as no agent (all tools); a task
   * whose agent or profile cannot be resolved is offered none (its calls would be denied).
   */
  async toolFilter(task: TaskPolicyOptions): Promise<((tool: string) => boolean) | undefined> {
    const policy = await resolveTaskPolicy(task, this.tasks, this.profileNames());
    if (!policy.ok) return () => false;
    const allowlist = policy.allowlist;
    return allowlist && ((tool) => allowlist.permits(tool));
  }

  /**
   * Refuses a task before it is created when its agent does not exist (`not_found`) or its
   * policy profile — its own or its agent's — is not defined in the config (`invalid_params`).
   * `within`: the session of the transaction the task is created in, when there is one.
   */
  async checkTask(options: TaskPolicyOptions, within?: SqlSession): Promise<void> {
    const policy = await resolveTaskPolicy(options, this.tasks, this.profileNames(), within);
    if (policy.ok) return;
    if (policy.source === 'agent')
      throw new AgentDeskError('not_found', `no agent named "${options.agent}"; agents.list shows the defined ones`);
    const owner = options.policyProfile === undefined ? ` (the policy profile of agent "${policy.agent}")` : '';
    throw new AgentDeskError('invalid_params', `${policy.reason}${owner}`, {
      profile: policy.profile,
      ...(policy.agent && { agent: policy.agent }),
    });
  }

  /** The profile names the config defines. */
  profileNames(): ReadonlySet<string> {
    return this.profileSet;
  }

  private async verdict(input: DecideInput, rules: CompiledRules): Promise<Verdict> {
    const { classification } = input;
    const match = evaluateRules(rules, { tool: input.tool, subject: classification.subject, host: classification.host });
    if (match?.effect === 'deny') return ruleVerdict(match);

    const networkAllow = input.networkAllow?.length
      ? [...this.networkAllow, ...compileHostPatterns(input.networkAllow, 'task.networkAllow')]
      : this.networkAllow;
    const defaults = defaultDecision(classification, { networkAllow, scopes: input.scopes ?? [] });
    if (defaults.binding) {
      const overruled = match?.effect === 'allow' ? `; rule "${match.rule}" cannot relax it` : '';
      const texts =
        match?.effect === 'allow' ? [...defaults.texts, { code: 'policy.ruleCannotRelax', params: { rule: match.rule } }] : defaults.texts;
      return { effect: defaults.effect, source: 'default', reason: defaults.reason + overruled, reasonTexts: texts };
    }
    if (match?.effect === 'allow') return ruleVerdict(match);
    // Nothing to remember when the defaults already allow (and it saves a lookup per step).
    if (!match && defaults.effect === 'allow')
      return { effect: 'allow', source: 'default', reason: defaults.reason, reasonTexts: defaults.texts };

    const candidates = await this.grants.findGrant({ taskId: input.taskId, tool: input.tool, subject: classification.subject });
    const rule = combinedRule(this.approvalRules, classification.risks);
    const grant = candidates.find((c) => grantHolds(c, rule))?.scope;
    if (grant) {
      const after = match ? `rule "${match.rule}" asks; ` : '';
      const texts = [...(match ? [{ code: 'policy.ruleAsks', params: { rule: match.rule } }] : []), grantText(grant)];
      return { effect: 'allow', source: 'remembered', reason: `${after}${grantReason(grant)}`, reasonTexts: texts };
    }
    if (match) return ruleVerdict(match);
    return { effect: defaults.effect, source: 'default', reason: defaults.reason, reasonTexts: defaults.texts };
  }
}

/**
 * Throws `invalid_params` when an approval of a payment asks to be remembered:
 * a payment is approved once, every time.
 */
export function assertRememberAllowed(risks: readonly RiskClass[], remember: Remember): void {
  if (remember === 'once' || !risks.includes('payment')) return;
  throw new AgentDeskError(
    'invalid_params',
    `remember "${remember}" is not allowed for payments: a payment is approved every time; decide with remember "once"`,
    { remember, risks },
  );
}

function ruleVerdict(match: RuleMatch): Verdict {
  const reason =
    match.effect === 'deny'
      ? `denied by rule "${match.rule}"`
      : match.effect === 'ask'
        ? `rule "${match.rule}" asks`
        : `allowed by rule "${match.rule}"`;
  const code = match.effect === 'deny' ? 'policy.ruleDenies' : match.effect === 'ask' ? 'policy.ruleAsks' : 'policy.ruleAllows';
  return { effect: match.effect, source: 'rule', rule: match.rule, reason, reasonTexts: [{ code, params: { rule: match.rule } }] };
}

function grantText(grant: GrantScope): ServerText {
  return { code: grant === 'task' ? 'policy.grantTask' : 'policy.grantAlways', params: {} };
}

function grantReason(grant: GrantScope): string {
  return grant === 'task' ? 'approved earlier in this task' : 'approved earlier with remember "always"';
}
