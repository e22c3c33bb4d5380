import { describe, expect, it } from 'vitest';
import { PolicyConfigSchema, PolicyDecisionSchema } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import { PolicyGate } from '../../../../electron/runtime/policy/gate.js';
import type { AgentPolicy, TaskPolicyLookup, TaskPolicyOptions } from '../../../../electron/runtime/policy/taskPolicy.js';
import { classification } from './classifications.js';

/** Tasks and agents held in maps, the way the store answers the gate. */
function lookup(tasks: Record<string, TaskPolicyOptions>, agents: AgentPolicy[]): TaskPolicyLookup {
  return {
    task: (id) => Promise.resolve(tasks[id]),
    agent: (name) => Promise.resolve(agents.find((a) => a.name === name)),
  };
}

const noGrants = { findGrant: () => Promise.resolve([]) };
const write = classification(['write']);
const del = classification(['delete'], { subject: 'logs/old.log' });

function gate(tasks: Record<string, TaskPolicyOptions>, agents: AgentPolicy[] = []) {
  const config = PolicyConfigSchema.parse({
    rules: { deny: ['fs.write'] },
    profiles: { ops: { allow: ['fs.delete(logs/**)'] }, locked: { deny: ['fs.*'] } },
  });
  return new PolicyGate(config, noGrants, lookup(tasks, agents));
}

describe('agent allowlists in the gate', () => {
  it('denies a tool outside the agent’s wildcards, naming agent and tool, before any rule or default', async () => {
    const g = gate({ t: { agent: 'reader' } }, [{ name: 'reader', tools: ['fs.read', 'http.*'] }]);
    const decision = await g.decide({ taskId: 't', tool: 'fs.delete', classification: del });
    expect(PolicyDecisionSchema.parse(decision)).toEqual(decision);
    expect(decision).toMatchObject({ effect: 'deny', source: 'agent', agent: 'reader', rememberable: false });
    expect(decision.reason).toBe('agent "reader" may not use tool "fs.delete": it is not in the agent\'s tool allowlist (fs.read, http.*)');
    expect(await g.decide({ taskId: 't', tool: 'http.request', classification: classification(['read']) })).toMatchObject({
      effect: 'allow',
      agent: 'reader',
    });
  });

  it('a wildcard is literal but for "*": "fs.*" does not match "fsXread"', async () => {
    const g = gate({ t: { agent: 'a' } }, [{ name: 'a', tools: ['fs.*'] }]);
    expect((await g.toolFilter({ agent: 'a' }))?.('fs.read')).toBe(true);
    expect((await g.toolFilter({ agent: 'a' }))?.('fsXread')).toBe(false);
    expect(await g.toolFilter({})).toBeUndefined(); // no agent: every tool
  });

  it('a task whose agent was deleted is denied every call (fail closed)', async () => {
    const g = gate({ t: { agent: 'gone' } });
    expect(await g.decide({ taskId: 't', tool: 'fs.read', classification: classification(['read']) })).toMatchObject({
      effect: 'deny',
      source: 'agent',
      reason: 'the task runs as agent "gone", which no longer exists',
    });
    expect((await g.toolFilter({ agent: 'gone' }))?.('fs.read')).toBe(false);
  });
});

describe('policy profiles', () => {
  it('a profile’s rules replace the default rules for its tasks', async () => {
    const g = gate({ plain: {}, ops: { policyProfile: 'ops' } });
    expect(await g.decide({ taskId: 'plain', tool: 'fs.write', classification: write })).toMatchObject({
      effect: 'deny',
      rule: 'fs.write',
    });
    expect(await g.decide({ taskId: 'plain', tool: 'fs.delete', classification: del })).toMatchObject({ effect: 'ask', source: 'default' });
    expect(await g.decide({ taskId: 'ops', tool: 'fs.write', classification: write })).toMatchObject({
      effect: 'allow',
      source: 'default',
      profile: 'ops',
    });
    expect(await g.decide({ taskId: 'ops', tool: 'fs.delete', classification: del })).toMatchObject({
      effect: 'allow',
      source: 'rule',
      rule: 'fs.delete(logs/**)',
      profile: 'ops',
    });
  });

  it('the task’s own profile wins over its agent’s, which wins over the default rules', async () => {
    const agents = [{ name: 'ops-bot', tools: ['*'], policyProfile: 'ops' }];
    const g = gate({ viaAgent: { agent: 'ops-bot' }, own: { agent: 'ops-bot', policyProfile: 'locked' } }, agents);
    expect(await g.decide({ taskId: 'viaAgent', tool: 'fs.delete', classification: del })).toMatchObject({
      effect: 'allow',
      profile: 'ops',
    });
    expect(await g.decide({ taskId: 'own', tool: 'fs.delete', classification: del })).toMatchObject({
      effect: 'deny',
      rule: 'fs.*',
      profile: 'locked',
    });
  });

  it('binding defaults hold under every profile: a payment still asks', async () => {
    const config = PolicyConfigSchema.parse({ profiles: { shop: { allow: ['shop.pay'] } } });
    const g = new PolicyGate(config, noGrants, lookup({ t: { policyProfile: 'shop' } }, []));
    expect(await g.decide({ taskId: 't', tool: 'shop.pay', classification: classification(['payment']) })).toMatchObject({
      effect: 'ask',
      source: 'default',
    });
  });

  it('an unknown profile is refused at task creation with a typed error, and denies calls of an existing task', async () => {
    const g = gate({ t: { policyProfile: 'nope' } }, [{ name: 'bot', tools: ['*'], policyProfile: 'nope' }]);
    const refusal = async (options: TaskPolicyOptions) => {
      try {
        await g.checkTask(options);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const own = await refusal({ policyProfile: 'nope' });
    expect(own).toBeInstanceOf(AgentDeskError);
    expect(own).toMatchObject({
      code: 'invalid_params',
      message: 'unknown policy profile "nope" (config policy.profiles: defined: locked, ops)',
    });
    expect(await refusal({ agent: 'bot' })).toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('the policy profile of agent "bot"'),
    });
    expect(await refusal({ agent: 'nobody' })).toMatchObject({ code: 'not_found' });
    expect(await refusal({ agent: 'bot', policyProfile: 'ops' })).toBeUndefined();
    expect(await g.decide({ taskId: 't', tool: 'fs.read', classification: classification(['read']) })).toMatchObject({
      effect: 'deny',
      source: 'profile',
      profile: 'nope',
    });
  });

  it('a bad rule inside a profile is reported with its path when the gate is built', () => {
    const config = PolicyConfigSchema.parse({ profiles: { ops: { deny: ['fs.delete('] } } });
    expect(() => new PolicyGate(config, noGrants)).toThrow(/profiles\.ops\.deny\[0\]/);
  });
});
