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
    this.repo = new AgentRepo(rt.store.sql);
    this.clock = rt.clock;
  }

  list(): Promise<Agent[]> {
    return this.repo.list();
  }

  get(name: string): Promise<Agent> {
    return found(this.repo, name);
  }

  /** Checked and written in one transaction: two creates of one name never both succeed. */
  async create(input: unknown): Promise<Agent> {
    const spec = this.checked(parse(input));
    return await this.rt.store.transaction(async (tx) => {
      const repo = new AgentRepo(tx.sql);
      if (await repo.get(spec.name)) throw new AgentDeskError('conflict', `agent "${spec.name}" already exists; use agents.update`);
      const now = isoAt(this.clock.now());
      const agent: Agent = { ...spec, createdAt: now, updatedAt: now };
      await repo.save(agent);
      return agent;
    });
  }

  /** Read, patched and written in one transaction: concurrent updates each apply to the other's result. */
  update(name: string, patch: Partial<Omit<AgentSpec, 'name'>>): Promise<Agent> {
    return this.rt.store.transaction(async (tx) => {
      const repo = new AgentRepo(tx.sql);
      const { createdAt, updatedAt: _old, ...current } = await found(repo, name);
      void _old;
      const agent: Agent = { ...this.checked(parse({ ...current, ...patch, name })), createdAt, updatedAt: isoAt(this.clock.now()) };
      await repo.save(agent);
      return agent;
    });
  }

  remove(name: string): Promise<boolean> {
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

async function found(repo: AgentRepo, name: string): Promise<Agent> {
  const agent = await repo.get(name);
  if (!agent) throw new AgentDeskError('not_found', `no agent "${name}"; agents.list shows the defined ones`);
  return agent;
}

function parse(input: unknown): AgentSpec {
  const parsed = AgentSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('invalid_params', `invalid agent:\n${describeIssues(issues)}`, { issues });
  }
  return parsed.data;
}
