import type { Repos } from '../store/store.js';
import { ToolError } from '../tools/types.js';

/** How deep sub-agents may nest: a parent, its child, its grandchild. */
export const MAX_DELEGATION_DEPTH = 3;

/** The agents from the root task down to `taskId` (tasks running as no agent show as `(none)`). */
export async function agentChain(store: Pick<Repos, 'tasks'>, taskId: string): Promise<string[]> {
  const chain: string[] = [];
  const seen = new Set<string>();
  for (let id: string | undefined = taskId; id !== undefined && !seen.has(id);) {
    seen.add(id);
    const task = await store.tasks.get(id);
    chain.unshift(task?.agent ?? '(none)');
    id = task?.parentId;
  }
  return chain;
}

/** Refuses a delegation that would nest too deep or hand work back to an agent already in the chain. */
export function checkDelegation(chain: readonly string[], target: string): void {
  if (chain.length >= MAX_DELEGATION_DEPTH) {
    throw new ToolError(
      `delegation depth limit (${MAX_DELEGATION_DEPTH}) reached: ${chain.join(' → ')} cannot delegate further`,
      false,
      'delegation_depth',
    );
  }
  if (chain.includes(target)) {
    throw new ToolError(
      `delegation cycle refused: ${[...chain, target].join(' → ')} would hand the work back to "${target}"`,
      false,
      'delegation_cycle',
    );
  }
}
