import { agentsFor } from '../agents/index.js';
import type { AgentRuntime } from '../agentRuntime.js';
import type { Handlers } from './handlers.js';

/** `agents.*` over RPC (and registers the `agents.delegate` tool). */
export function agentHandlers(rt: AgentRuntime): Handlers {
  const agents = agentsFor(rt);
  return {
    'agents.list': () => ({ agents: agents.list() }),
    'agents.create': (p) => agents.create(p),
    'agents.update': (p) => agents.update(p.name, p.patch),
    'agents.delete': (p) => ({ deleted: agents.remove(p.name) }),
  };
}
