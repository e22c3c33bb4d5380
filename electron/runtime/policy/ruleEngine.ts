import picomatch from 'picomatch';
import type { Issue, PolicyEffect, PolicyRules } from '../../contract/index.js';
import { AgentDeskError, describeIssues } from '../errors.js';
import { type HostPattern, hostMatches, tryParseHostPattern } from './hostPattern.js';
import { hostOfUrl, subjectForms } from './subject.js';
import { wildcardToRegExp } from './wildcard.js';

/** What the pattern inside `Tool(…)` matches: nothing (every call), the subject, or the host. */
export type RulePattern =
  { kind: 'any' } | { kind: 'subject'; glob: string; matches: (subject: string) => boolean } | { kind: 'domain'; host: HostPattern };

/** A parsed `Tool(pattern)` rule, ready to match calls. */
export interface CompiledRule {
  /** The rule as written, reported back on decisions. */
  text: string;
  tool: RegExp;
  pattern: RulePattern;
}

/** Compiled rules per effect, in the order they are evaluated. */
export interface CompiledRules {
  deny: CompiledRule[];
  ask: CompiledRule[];
  allow: CompiledRule[];
}

/** The call a rule is matched against. */
export interface RuleCall {
  tool: string;
  /** A workspace-relative path for fs tools, a URL for http, '' when none. */
  subject: string;
  /** `hostname[:port]`; derived from a URL subject when absent. */
  host?: string;
}

/** The first rule that matched, and its effect. */
export interface RuleMatch {
  effect: PolicyEffect;
  rule: string;
}

const TOOL_GLOB = /^[A-Za-z0-9_.\-/*]+$/;
const DOMAIN_PREFIX = 'domain:';
const EFFECT_ORDER = ['deny', 'ask', 'allow'] as const;

/** Parses one rule such as `fs.delete(logs/**)`; throws `invalid_params` naming the rule and the problem. */
export function parseRule(text: string): CompiledRule {
  const parsed = tryParseRule(text);
  if ('problem' in parsed) {
    throw new AgentDeskError('invalid_params', `Invalid policy rule "${text}": ${parsed.problem}`, {
      rule: text,
      problem: parsed.problem,
    });
  }
  return parsed;
}

/** Compiles every rule, reporting all bad ones at once with their paths (`rules.deny[1]`). */
export function compileRules(rules: PolicyRules): CompiledRules {
  const { compiled, issues } = collectRules(rules);
  if (issues.length > 0) {
    throw new AgentDeskError('invalid_params', `Invalid policy rules:\n${describeIssues(issues)}`, { issues });
  }
  return compiled;
}

/** Like {@link compileRules} but returns the issues instead of throwing. */
export function collectRules(rules: PolicyRules): { compiled: CompiledRules; issues: Issue[] } {
  const compiled: CompiledRules = { deny: [], ask: [], allow: [] };
  const issues: Issue[] = [];
  for (const effect of EFFECT_ORDER) {
    rules[effect].forEach((text, i) => {
      const parsed = tryParseRule(text);
      if ('problem' in parsed) issues.push({ path: `rules.${effect}[${i}]`, message: `"${text}": ${parsed.problem}` });
      else compiled[effect].push(parsed);
    });
  }
  return { compiled, issues };
}

/** The first matching rule, looking at deny, then ask, then allow rules. */
export function evaluateRules(compiled: CompiledRules, call: RuleCall): RuleMatch | undefined {
  for (const effect of EFFECT_ORDER) {
    const hit = compiled[effect].find((rule) => ruleMatches(rule, call));
    if (hit) return { effect, rule: hit.text };
  }
  return undefined;
}

/** True when the rule covers the call. */
export function ruleMatches(rule: CompiledRule, call: RuleCall): boolean {
  if (!rule.tool.test(call.tool)) return false;
  const { pattern } = rule;
  switch (pattern.kind) {
    case 'any':
      return true;
    case 'subject':
      // A pattern names a subject; a call without one (no forms) is not "any subject".
      return subjectForms(call.subject).some(pattern.matches);
    case 'domain': {
      const host = call.host ?? hostOfUrl(call.subject);
      return host !== undefined && hostMatches(pattern.host, host);
    }
  }
}

function tryParseRule(text: string): CompiledRule | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'empty rule; write a tool name such as "fs.read" or "fs.delete(logs/**)"' };
  const split = splitRule(trimmed);
  if ('problem' in split) return split;
  if (split.tool === '') return { problem: 'empty tool name before "("; write e.g. "fs.delete(logs/**)"' };
  if (!TOOL_GLOB.test(split.tool)) {
    return { problem: `tool "${split.tool}" may contain only letters, digits, ".", "_", "-", "/" and "*"` };
  }
  const pattern = split.pattern === undefined ? { kind: 'any' as const } : parsePattern(split.pattern);
  if ('problem' in pattern) return pattern;
  return { text: trimmed, tool: wildcardToRegExp(split.tool), pattern };
}

/** Splits `Tool(pattern)` into its parts, checking the parentheses balance. */
function splitRule(text: string): { tool: string; pattern?: string } | { problem: string } {
  const open = text.indexOf('(');
  const strayClose = text.indexOf(')');
  if (strayClose !== -1 && (open === -1 || strayClose < open)) {
    return { problem: 'unbalanced parentheses: ")" without a "(" before it' };
  }
  if (open === -1) return { tool: text };
  const close = matchingClose(text, open);
  if (close === -1) return { problem: 'unbalanced parentheses: "(" is never closed; end the rule with ")"' };
  const after = text.slice(close + 1);
  if (after.includes(')')) return { problem: 'unbalanced parentheses: an extra ")" after the pattern' };
  if (after.trim() !== '') return { problem: `unexpected "${after}" after the closing ")"` };
  return { tool: text.slice(0, open).trim(), pattern: text.slice(open + 1, close).trim() };
}

function matchingClose(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

function parsePattern(pattern: string): RulePattern | { problem: string } {
  if (pattern === '') return { problem: 'empty pattern in "()"; drop the parentheses to match every call of the tool' };
  if (pattern.startsWith(DOMAIN_PREFIX)) {
    const host = tryParseHostPattern(pattern.slice(DOMAIN_PREFIX.length));
    return 'problem' in host ? { problem: `domain: ${host.problem}` } : { kind: 'domain', host };
  }
  try {
    // dot: a deny rule over `logs/**` must also cover `logs/.env`.
    const matches = picomatch(pattern, { dot: true });
    return { kind: 'subject', glob: pattern, matches: (subject) => matches(subject) };
  } catch (error) {
    return { problem: `invalid glob: ${error instanceof Error ? error.message : String(error)}` };
  }
}
