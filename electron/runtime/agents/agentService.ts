import { AgentSpecSchema, type Agent, type AgentSpec } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { isoAt, type Clock } from '../clock.js';
import { AgentDeskError, describeIssues, issuesFromZod } from '../errors.js';
import { unknownProfile } from '../policy/taskPolicy.js';
import { AgentRepo } from '../store/agentRepo.js';

/** Agent definitions: model, tool allowlist, policy profile, workspace, budgets, concurrency. */
export class AgentService {
  readonly repo: AgentRepo;
  private readonly clock: Clock;

  constructor(private readonly rt: Pick<RuntimeCore, 'store' | 'clock' | 'gate'>) {
    this.repo = new AgentRepo(rt.store.db);
    this.clock = rt.clock;
  }

  list(): Agent[] {
    return this.repo.list();
  }

  get(name: string): Agent {
    const agent = this.repo.get(name);
    if (!agent) throw new AgentDeskError('not_found', `no agent "${name}"; agents.list shows the defined ones`);
    return agent;
  }

  create(input: unknown): Agent {
    const spec = this.checked(parse(input));
    if (this.repo.get(spec.name)) throw new AgentDeskError('conflict', `agent "${spec.name}" already exists; use agents.update`);
    const now = isoAt(this.clock.now());
    const agent: Agent = { ...spec, createdAt: now, updatedAt: now };
    this.repo.save(agent);
    return agent;
  }

  update(name: string, patch: Partial<Omit<AgentSpec, 'name'>>): Agent {
    const { createdAt, updatedAt: _old, ...current } = this.get(name);
    void _old;
    const agent: Agent = { ...this.checked(parse({ ...current, ...patch, name })), createdAt, updatedAt: isoAt(this.clock.now()) };
    this.repo.save(agent);
    return agent;
  }

  remove(name: string): boolean {
    return this.repo.remove(name);
  }

  /** Refuses a policy profile the config does not define (its tasks would be denied every call). */
  private checked(spec: AgentSpec): AgentSpec {
    const profiles = this.rt.gate.profileNames();
    if (spec.policyProfile !== undefined && !profiles.has(spec.policyProfile)) {
      throw new AgentDeskError('invalid_params', `agent "${spec.name}": ${unknownProfile(spec.policyProfile, profiles)}`, {
        profile: spec.policyProfile,
      });
    }
    return spec;
  }
}

function parse(input: unknown): AgentSpec {
  const parsed = AgentSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('invalid_params', `invalid agent:\n${describeIssues(issues)}`, { issues });
  }
  return parsed.data;
}
