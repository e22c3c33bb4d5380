import { canonicalJson } from '../../digest.js';

/**
 * Results of read-only calls within one task, keyed by tool and arguments. Any side effect
 * clears it, since a write may change what a read would return.
 */
export class ReadCache {
  private entries = new Map<string, { index: number; text: string }>();
  hits = 0;

  get(tool: string, args: unknown): { index: number; text: string } | undefined {
    const hit = this.entries.get(keyOf(tool, args));
    if (hit) this.hits++;
    return hit;
  }

  put(tool: string, args: unknown, index: number, text: string): void {
    this.entries.set(keyOf(tool, args), { index, text });
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The arguments' canonical text itself (read-only calls have small arguments): no hash per lookup. */
function keyOf(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}
