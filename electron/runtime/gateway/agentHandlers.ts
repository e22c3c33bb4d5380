import type { AgentService } from '../agents/agentService.js';
import type { Handlers } from './handlers.js';

/** `agents.*` over RPC. */
export function agentHandlers(agents: AgentService): Handlers {
  return {
    'agents.list': () => ({ agents: agents.list() }),
    'agents.create': (p) => agents.create(p),
    'agents.update': (p) => agents.update(p.name, p.patch),
    'agents.delete': (p) => ({ deleted: agents.remove(p.name) }),
  };
}
