import { describe, expect, it } from 'vitest';
import type { Scope } from '../../../../electron/contract/index.js';
import { type DefaultContext, defaultDecision } from '../../../../electron/runtime/policy/defaults.js';
import { compileHostPatterns } from '../../../../electron/runtime/policy/hostPattern.js';
import { classification, httpCall } from './classifications.js';

const ctx = (networkAllow: string[] = [], scopes: Scope[] = []): DefaultContext => ({
  networkAllow: compileHostPatterns(networkAllow),
  scopes,
});

describe('default risk rules', () => {
  it('read is allowed', () => {
    expect(defaultDecision(classification(['read']), ctx())).toMatchObject({ effect: 'allow' });
  });

  it('write inside the workspace is allowed', () => {
    expect(defaultDecision(classification(['write']), ctx()).effect).toBe('allow');
  });

  it('write outside the workspace asks', () => {
    const call = classification(['write'], { subject: '/etc/hosts', insideWorkspace: false });
    expect(defaultDecision(call, ctx())).toEqual({
      effect: 'ask',
      reason: 'write outside the task workspace asks by default',
      texts: [{ code: 'policy.writeOutsideAsks', params: {} }],
      binding: false,
    });
  });

  it('delete inside the workspace asks', () => {
    expect(defaultDecision(classification(['delete']), ctx())).toMatchObject({
      effect: 'ask',
      reason: 'delete asks by default',
    });
  });

  it('delete outside the workspace asks', () => {
    const call = classification(['delete'], { subject: '../other/a.txt', insideWorkspace: false });
    expect(defaultDecision(call, ctx()).effect).toBe('ask');
  });

  it('send and exec ask', () => {
    expect(defaultDecision(classification(['send']), ctx()).effect).toBe('ask');
    expect(defaultDecision(classification(['exec']), ctx()).effect).toBe('ask');
  });

  it('payment asks and cannot be relaxed', () => {
    expect(defaultDecision(classification(['payment']), ctx())).toMatchObject({ effect: 'ask', binding: true });
  });

  it('external_http to an allowlisted host is allowed', () => {
    const decision = defaultDecision(httpCall('https://api.example.com/v1'), ctx(['*.example.com']));
    expect(decision).toMatchObject({ effect: 'allow' });
    expect(decision.reason).toContain('api.example.com');
  });

  it('external_http to a host outside the allowlist asks', () => {
    const decision = defaultDecision(httpCall('https://example.org/'), ctx(['*.example.com']));
    expect(decision.effect).toBe('ask');
    expect(decision.reason).toMatch(/not in networkAllow/);
  });

  it('an allowlist entry with a port glob allows local servers on any port', () => {
    expect(defaultDecision(httpCall('http://127.0.0.1:5173/'), ctx(['127.0.0.1:*'])).effect).toBe('allow');
    expect(defaultDecision(httpCall('http://127.0.0.2:5173/'), ctx(['127.0.0.1:*'])).effect).toBe('ask');
  });

  it('external_http with no host reported takes it from the URL subject', () => {
    const call = classification(['external_http'], { subject: 'https://api.example.com/x' });
    expect(defaultDecision(call, ctx(['api.example.com'])).effect).toBe('allow');
  });

  it('secrets is denied without the secrets scope', () => {
    expect(defaultDecision(classification(['secrets']), ctx([], ['operator.admin']))).toEqual({
      effect: 'deny',
      reason: 'secrets is denied without the operator.secrets scope',
      texts: [{ code: 'policy.secretsNeedScope', params: {} }],
      binding: true,
    });
  });

  it('secrets asks with the secrets scope', () => {
    expect(defaultDecision(classification(['secrets']), ctx([], ['operator.secrets']))).toMatchObject({
      effect: 'ask',
      binding: false,
    });
  });

  it('a call with no risk class asks', () => {
    expect(defaultDecision(classification([]), ctx()).effect).toBe('ask');
  });
});

describe('several risks', () => {
  it('the most restrictive effect wins and the reason names the deciding risks', () => {
    const call = classification(['read', 'delete', 'send']);
    expect(defaultDecision(call, ctx())).toEqual({
      effect: 'ask',
      reason: 'delete asks by default; send asks by default',
      texts: [
        { code: 'policy.riskAsks', params: { risk: 'delete' } },
        { code: 'policy.riskAsks', params: { risk: 'send' } },
      ],
      binding: false,
    });
  });

  it('deny beats ask', () => {
    expect(defaultDecision(classification(['send', 'secrets']), ctx()).effect).toBe('deny');
  });
});

describe('networkAllow validation', () => {
  it('a URL in networkAllow is reported with its path', () => {
    expect(() => compileHostPatterns(['api.example.com', 'https://api.example.com/'])).toThrow(
      /networkAllow\[1\]: "https:\/\/api\.example\.com\/" is not a host/,
    );
  });

  it('an unbracketed IPv6 address is reported', () => {
    expect(() => compileHostPatterns(['::1'])).toThrow(/brackets/);
  });

  it('a bracketed IPv6 address with a port is accepted and matches', () => {
    expect(defaultDecision(httpCall('http://[::1]:8080/'), ctx(['[::1]:*'])).effect).toBe('allow');
  });
});
