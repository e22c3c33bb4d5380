import type { ModelRequest } from '../models/types.js';
import { estimateTokens } from './tokenEstimate.js';

/** A request as the ordered blocks a provider's prompt cache matches: system, tools, then messages. */
function blocksOf(request: ModelRequest): string[] {
  return [request.system, ...request.tools.map((t) => JSON.stringify(t)), ...request.messages.map((m) => JSON.stringify(m))];
}

/**
 * Estimated tokens of `current` that repeat, block for block, the start of `previous`: what a
 * provider's prompt cache can serve when the two requests are sent one after the other.
 */
export function repeatedPrefixTokens(previous: ModelRequest | undefined, current: ModelRequest): number {
  if (!previous) return 0;
  const before = blocksOf(previous);
  const now = blocksOf(current);
  let tokens = 0;
  for (let i = 0; i < now.length && i < before.length && now[i] === before[i]; i++) tokens += estimateTokens(now[i]!);
  return tokens;
}
