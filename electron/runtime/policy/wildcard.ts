/**
 * Compiles a `*`-only wildcard into an anchored RegExp; every other character is literal.
 * Used for tool names and hosts, where picomatch would misread `[`, `{`, `!` and `.`.
 */
export function wildcardToRegExp(pattern: string, options: { ignoreCase?: boolean } = {}): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, options.ignoreCase ? 'i' : '');
}
