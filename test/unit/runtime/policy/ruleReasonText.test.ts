import { describe, expect, it } from 'vitest';
import { PolicyConfigSchema } from '../../../../electron/contract/index.js';
import { type GrantScope, PolicyGate } from '../../../../electron/runtime/policy/gate.js';
import { translateServerTexts } from '../../../../renderer/src/i18n/index.js';
import { classification } from './classifications.js';

const logDelete = classification(['delete'], { subject: 'logs/app.log' });

function gate(rules: { deny?: readonly string[]; ask?: readonly string[]; allow?: readonly string[] }, grant?: GrantScope) {
  const config = PolicyConfigSchema.parse({ rules: { deny: [], ask: [], allow: [], ...rules } });
  return new PolicyGate(config, { findGrant: () => Promise.resolve(grant ? [{ scope: grant }] : []) });
}
const decide = (g: PolicyGate) => g.decide({ taskId: 't1', tool: 'fs.delete', classification: logDelete });

describe('rule and grant reasons as codes', () => {
  it.each([
    [{ deny: ['fs.delete(logs/**)'] }, undefined, 'policy.ruleDenies', '被规则“fs.delete(logs/**)”拒绝'],
    [{ ask: ['fs.delete(logs/**)'] }, undefined, 'policy.ruleAsks', '规则“fs.delete(logs/**)”要求询问'],
    [{ allow: ['fs.delete(logs/**)'] }, undefined, 'policy.ruleAllows', '规则“fs.delete(logs/**)”允许'],
    [{}, 'always', 'policy.grantAlways', '之前已批准并选择“始终”记住'],
    [{ ask: ['fs.delete'] }, 'task', 'policy.ruleAsks', '规则“fs.delete”要求询问；此任务中已批准过'],
  ] as const)('%j with grant %s → %s', async (rules, grant, code, chinese) => {
    const decision = await decide(gate(rules, grant));
    expect(decision.reasonTexts?.[0]?.code).toBe(code);
    // The English catalog joins to the gate's own English; the reader's language from the same codes.
    expect(translateServerTexts('en', decision.reasonTexts, '(unknown)')).toBe(decision.reason);
    expect(translateServerTexts('zh-CN', decision.reasonTexts, decision.reason)).toBe(chinese);
  });

  it("an agent's allowlist refusal names the agent, the tool and what it may use", async () => {
    const g = new PolicyGate(
      PolicyConfigSchema.parse({}),
      { findGrant: () => Promise.resolve([]) },
      {
        agent: () => Promise.resolve({ name: 'reader', tools: ['fs.read'] }),
        task: () => Promise.resolve({ agent: 'reader' }),
      },
    );
    const decision = await g.decide({ taskId: 't1', tool: 'fs.delete', classification: logDelete });
    expect(decision).toMatchObject({ effect: 'deny', source: 'agent' });
    expect(translateServerTexts('en', decision.reasonTexts, '(unknown)')).toBe(decision.reason);
    expect(translateServerTexts('zh-CN', decision.reasonTexts, decision.reason)).toBe(
      '代理“reader”不能使用工具“fs.delete”：它不在该代理的工具允许列表中（fs.read）',
    );
  });
});
