import { describe, expect, it } from 'vitest';
import { thrown } from '../../../support/errors.js';
import { compileRules, evaluateRules, parseRule, ruleMatches, type RuleCall } from '../../../../electron/runtime/policy/ruleEngine.js';

const matches = (rule: string, call: RuleCall) => ruleMatches(parseRule(rule), call);
const rules = (partial: { deny?: string[]; ask?: string[]; allow?: string[] }) =>
  compileRules({ deny: [], ask: [], allow: [], ...partial });

describe('tool part', () => {
  it('a bare tool name matches every call of that tool', () => {
    expect(matches('fs.delete', { tool: 'fs.delete', subject: 'a.txt' })).toBe(true);
    expect(matches('fs.delete', { tool: 'fs.delete', subject: '' })).toBe(true);
    expect(matches('fs.delete', { tool: 'fs.write', subject: 'a.txt' })).toBe(false);
  });

  it('`fs.*` matches every fs tool and nothing else', () => {
    expect(matches('fs.*', { tool: 'fs.write', subject: 'a' })).toBe(true);
    expect(matches('fs.*', { tool: 'fs.delete', subject: 'a' })).toBe(true);
    expect(matches('fs.*', { tool: 'fsx.write', subject: 'a' })).toBe(false);
    expect(matches('fs.*', { tool: 'http.request', subject: 'a' })).toBe(false);
  });

  it('the dot in a tool name is literal', () => {
    expect(matches('fs.write', { tool: 'fsXwrite', subject: 'a' })).toBe(false);
  });

  it('`mcp__github__*` matches the tools of one MCP server', () => {
    expect(matches('mcp__github__*', { tool: 'mcp__github__create_issue', subject: '' })).toBe(true);
    expect(matches('mcp__github__*', { tool: 'mcp__gitlab__create_issue', subject: '' })).toBe(false);
  });

  it('`*` alone matches every tool', () => {
    expect(matches('*', { tool: 'browser.click', subject: '' })).toBe(true);
  });
});

describe('subject patterns', () => {
  it('`fs.delete(logs/**)` matches files under logs, dotfiles included', () => {
    expect(matches('fs.delete(logs/**)', { tool: 'fs.delete', subject: 'logs/2024/app.log' })).toBe(true);
    expect(matches('fs.delete(logs/**)', { tool: 'fs.delete', subject: 'logs/.env' })).toBe(true);
    expect(matches('fs.delete(logs/**)', { tool: 'fs.delete', subject: 'src/app.ts' })).toBe(false);
  });

  it('a path cannot dodge a pattern with `./`, doubled slashes or backslashes', () => {
    for (const subject of ['./logs/a.log', 'logs//a.log', 'logs\\a.log', 'src/../logs/a.log']) {
      expect(matches('fs.delete(logs/**)', { tool: 'fs.delete', subject })).toBe(true);
    }
  });

  it('`..` that leaves the folder does not count as inside it', () => {
    expect(matches('fs.write(logs/**)', { tool: 'fs.write', subject: 'logs/../secrets.txt' })).toBe(false);
  });

  it('a pattern does not match a call without a subject', () => {
    expect(matches('fs.delete(**)', { tool: 'fs.delete', subject: '' })).toBe(false);
  });

  it('`http.request(http://127.0.0.1:*/**)` matches local URLs on any port', () => {
    const rule = 'http.request(http://127.0.0.1:*/**)';
    expect(matches(rule, { tool: 'http.request', subject: 'http://127.0.0.1:8080/api/items?id=1' })).toBe(true);
    expect(matches(rule, { tool: 'http.request', subject: 'http://127.0.0.1:8080' })).toBe(true);
    expect(matches(rule, { tool: 'http.request', subject: 'http://127.0.0.1.evil.test:80/' })).toBe(false);
    expect(matches(rule, { tool: 'http.request', subject: 'https://127.0.0.1:8443/' })).toBe(false);
  });

  it('a URL on its default port matches a pattern with or without the port', () => {
    expect(matches('http.request(http://127.0.0.1:*/**)', { tool: 'http.request', subject: 'http://127.0.0.1/x' })).toBe(true);
    expect(matches('http.request(http://127.0.0.1/**)', { tool: 'http.request', subject: 'http://127.0.0.1:80/x' })).toBe(true);
  });

  it('user info in a URL does not dodge a pattern', () => {
    const rule = 'http.request(https://internal.example.com/**)';
    expect(matches(rule, { tool: 'http.request', subject: 'https://me:pw@internal.example.com/admin' })).toBe(true);
  });

  it('URL subjects are compared in normal form (host case, default port)', () => {
    const rule = 'http.request(https://api.example.com/**)';
    expect(matches(rule, { tool: 'http.request', subject: 'HTTPS://API.Example.com:443/v1' })).toBe(true);
  });
});

describe('domain patterns', () => {
  const call = (host: string): RuleCall => ({ tool: 'http.request', subject: `https://${host}/`, host });

  it('`http.request(domain:*.example.com)` matches api.example.com but not example.org', () => {
    const rule = 'http.request(domain:*.example.com)';
    expect(matches(rule, call('api.example.com'))).toBe(true);
    expect(matches(rule, call('example.org'))).toBe(false);
    expect(matches(rule, call('example.com.evil.org'))).toBe(false);
  });

  it('a domain without a port matches any port; with a port only that port', () => {
    expect(matches('http.request(domain:api.example.com)', call('api.example.com:8443'))).toBe(true);
    expect(matches('http.request(domain:localhost:8080)', call('localhost:8080'))).toBe(true);
    expect(matches('http.request(domain:localhost:8080)', call('localhost:9090'))).toBe(false);
  });

  it('host case and a trailing dot do not dodge a domain rule', () => {
    expect(matches('http.request(domain:api.example.com)', call('API.Example.COM.:443'))).toBe(true);
  });

  it('the host comes from the URL subject when the call reports none', () => {
    const rule = 'http.request(domain:api.example.com:443)';
    expect(matches(rule, { tool: 'http.request', subject: 'https://api.example.com/v1' })).toBe(true);
  });

  it('a domain rule does not match a call with no host', () => {
    expect(matches('fs.read(domain:*)', { tool: 'fs.read', subject: 'notes.md' })).toBe(false);
  });
});

describe('evaluateRules', () => {
  const call: RuleCall = { tool: 'fs.delete', subject: 'logs/app.log' };

  it('a deny rule beats an allow rule', () => {
    const compiled = rules({ deny: ['fs.delete(logs/**)'], allow: ['fs.*'] });
    expect(evaluateRules(compiled, call)).toEqual({ effect: 'deny', rule: 'fs.delete(logs/**)' });
  });

  it('an ask rule beats an allow rule', () => {
    const compiled = rules({ ask: ['fs.delete'], allow: ['fs.delete(logs/**)'] });
    expect(evaluateRules(compiled, call)).toEqual({ effect: 'ask', rule: 'fs.delete' });
  });

  it('an allow rule applies when nothing stricter matches', () => {
    const compiled = rules({ deny: ['fs.delete(src/**)'], allow: ['fs.delete(logs/**)'] });
    expect(evaluateRules(compiled, call)).toEqual({ effect: 'allow', rule: 'fs.delete(logs/**)' });
  });

  it('the first matching rule of an effect is reported', () => {
    const compiled = rules({ deny: ['fs.delete(logs/*.log)', 'fs.*'] });
    expect(evaluateRules(compiled, call)?.rule).toBe('fs.delete(logs/*.log)');
  });

  it('no matching rule gives undefined', () => {
    expect(evaluateRules(rules({ allow: ['http.*'] }), call)).toBeUndefined();
  });
});

describe('parse errors', () => {
  it.each([
    ['fs.delete(logs/**', /unbalanced parentheses/],
    ['fs.delete)logs(', /unbalanced parentheses/],
    ['fs.delete(logs/**))', /unbalanced parentheses/],
    ['(logs/**)', /empty tool/],
    ['', /empty rule/],
    ['fs.delete()', /empty pattern/],
    ['fs.delete(a) b', /after the closing/],
    ['fs delete', /may contain only/],
    ['http.request(domain:)', /domain: empty host/],
    ['http.request(domain:https://example.com)', /not a host/],
    ['http.request(domain:example.com:http)', /port "http" must be digits/],
  ])('"%s" is rejected', (text, problem) => {
    const error = thrown(() => parseRule(text));
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain(`"${text}"`);
    expect(error.message).toMatch(problem);
  });

  it('parentheses inside a glob are fine when balanced', () => {
    expect(matches('fs.read(@(src|docs)/**)', { tool: 'fs.read', subject: 'docs/a.md' })).toBe(true);
  });

  it('a bad rule is reported with its path', () => {
    const error = thrown(() => rules({ deny: ['fs.delete', 'fs.delete(logs/**'], allow: ['(x)', 'fs.read'] }));
    expect(error.code).toBe('invalid_params');
    expect(error.details).toEqual({
      issues: [
        { path: 'rules.deny[1]', message: expect.stringMatching(/^"fs\.delete\(logs\/\*\*": unbalanced parentheses/) },
        { path: 'rules.allow[0]', message: expect.stringMatching(/^"\(x\)": empty tool/) },
      ],
    });
    expect(error.message).toContain('rules.deny[1]');
    expect(error.message).toContain('rules.allow[0]');
  });
});
