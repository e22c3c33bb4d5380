import { AgentDeskError } from '../errors.js';
import type { GrantRepo } from '../store/grantRepo.js';
import type { Handlers } from './handlers.js';

/** `grants.*`: what the user chose to remember ("this task", "always"), and forgetting it. */
export function grantHandlers(grants: GrantRepo): Handlers {
  return {
    'grants.list': async (p) => ({ grants: await grants.list(p) }),
    'grants.revoke': async (p) => {
      const revoked = await grants.revoke(p.id);
      if (!revoked) throw new AgentDeskError('not_found', `no grant ${p.id}; grants.list shows the remembered ones`, { id: p.id });
      return revoked;
    },
  };
}
