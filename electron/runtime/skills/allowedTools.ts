import { parseRule, ruleMatches, type CompiledRule, type RuleCall } from '../policy/ruleEngine.js';
import { AgentDeskError } from '../errors.js';

/** The tool that reads skills: always callable, so a narrowed task can still read its skill's files. */
export const SKILLS_READ = 'skills.read';

/**
 * Splits `allowed-tools` into entries. The string form is space-delimited, except inside
 * parentheses, so `fs.write(reports/a b.md)` stays one entry.
 */
export function allowedToolEntries(value: string | readonly string[]): string[] {
  if (typeof value !== 'string') return value.map((entry) => entry.trim()).filter((entry) => entry !== '');
  const entries: string[] = [];
  let current = '';
  let depth = 0;
  for (const char of value) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (/\s/.test(char) && depth === 0) {
      if (current !== '') entries.push(current);
      current = '';
    } else current += char;
  }
  if (current !== '') entries.push(current);
  return entries;
}

/** The problem with each entry that is not a tool name, wildcard or `Tool(pattern)` the policy rules accept. */
export function allowedToolProblems(entries: readonly string[]): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    try {
      parseRule(entry);
    } catch (error) {
      problems.push(
        `allowed-tools: ${error instanceof AgentDeskError ? error.message.replace(/^Invalid policy rule /, '') : String(error)}`,
      );
    }
  }
  return problems;
}

/**
 * A skill's `allowed-tools`, compiled with the policy rules' own `Tool(pattern)` matcher: a call
 * is permitted when an entry covers its tool (and, for `Tool(pattern)`, its subject or host).
 */
export class AllowedTools {
  private readonly rules: CompiledRule[];

  /** Entries are checked when the skill is parsed; one that no longer parses permits nothing (fail closed). */
  constructor(readonly entries: readonly string[]) {
    this.rules = entries.flatMap((entry) => {
      try {
        return [parseRule(entry)];
      } catch {
        return [];
      }
    });
  }

  permits(call: RuleCall): boolean {
    return call.tool === SKILLS_READ || this.rules.some((rule) => ruleMatches(rule, call));
  }
}
