import { wildcardToRegExp } from '../policy/wildcard.js';

/**
 * A hook entry's tool matcher: `*` wildcards over tool names (`fs.*`, `mcp__github__*`), several
 * joined by `|`; absent, empty or `*` matches every tool. Other characters are literal, so a
 * tool name's dots need no escaping (unlike Claude Code's regular expressions).
 */
export function compileToolMatcher(matcher: string | undefined): (tool: string) => boolean {
  const alternatives = (matcher ?? '')
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (alternatives.length === 0 || alternatives.includes('*')) return () => true;
  const patterns = alternatives.map((part) => wildcardToRegExp(part));
  return (tool) => patterns.some((pattern) => pattern.test(tool));
}
