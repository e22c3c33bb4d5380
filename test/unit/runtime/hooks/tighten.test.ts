import { describe, expect, it } from 'vitest';
import type { PolicyDecision } from '../../../../electron/contract/index.js';
import { tightenWithHook } from '../../../../electron/runtime/hooks/tighten.js';

const gate = (effect: PolicyDecision['effect'], extra: Partial<PolicyDecision> = {}): PolicyDecision => ({
  effect,
  risks: ['delete'],
  source: 'default',
  reason: `gate ${effect}`,
  rememberable: true,
  ...extra,
});

describe('a PreToolUse verdict against the gate', () => {
  it('allow from a hook changes nothing: it is no approval', () => {
    for (const effect of ['ask', 'deny', 'allow'] as const) {
      expect(tightenWithHook(gate(effect), { effect: 'allow', reason: 'PreToolUse hook: ok' })).toEqual(gate(effect));
    }
  });

  it('a gate that asks for a payment still asks when a hook says allow, and stays unrememberable', () => {
    const payment = gate('ask', { risks: ['payment'], rememberable: false });
    expect(tightenWithHook(payment, { effect: 'allow', reason: 'x' })).toEqual(payment);
  });

  it("deny from a hook denies what the gate would allow or ask, recorded as the hook's", () => {
    for (const effect of ['allow', 'ask'] as const) {
      const out = tightenWithHook(gate(effect, { rule: 'fs.delete(**)' }), { effect: 'deny', reason: 'PreToolUse hook: no' });
      expect(out).toEqual({ effect: 'deny', risks: ['delete'], source: 'hook', reason: 'PreToolUse hook: no', rememberable: false });
    }
  });

  it('ask from a hook asks where the gate allows, every time; both reasons show where both ask', () => {
    expect(tightenWithHook(gate('allow'), { effect: 'ask', reason: 'PreToolUse hook asks: look' })).toMatchObject({
      effect: 'ask',
      source: 'hook',
      rememberable: false,
    });
    expect(tightenWithHook(gate('ask'), { effect: 'ask', reason: 'hook says look' })).toMatchObject({
      effect: 'ask',
      source: 'default',
      reason: 'gate ask; hook says look',
      rememberable: false,
    });
  });

  it("the gate's deny stays the gate's", () => {
    expect(tightenWithHook(gate('deny', { source: 'rule' }), { effect: 'deny', reason: 'h' })).toEqual(gate('deny', { source: 'rule' }));
  });
});
