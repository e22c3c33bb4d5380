import type { AgentService } from '../agents/agentService.js';
import type { Handlers } from './handlers.js';

/** `agents.*` over RPC. */
export function agentHandlers(agents: AgentService): Handlers {
  return {
    'agents.list': async () => ({ agents: await agents.list() }),
    'agents.create': (p) => agents.create(p),
    'agents.update': (p) => agents.update(p.name, p.patch),
    'agents.delete': async (p) => ({ deleted: await agents.remove(p.name) }),
  };
}
