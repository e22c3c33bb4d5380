import { AgentDeskError } from '../errors.js';
import type { TokenRepo } from '../store/tokenRepo.js';
import type { Handlers } from './handlers.js';

/** `tokens.*`: issue, list and revoke gateway tokens (admin only, by the method table). */
export function tokenHandlers(tokens: TokenRepo, now: () => number): Handlers {
  const at = () => new Date(now()).toISOString();
  return {
    'tokens.create': (p) => tokens.issue(p.scopes, p.name, at()),
    'tokens.list': (p) => ({ tokens: tokens.list(p.includeRevoked) }),
    'tokens.revoke': (p) => {
      const revoked = tokens.revoke(p.id, at());
      if (!revoked) throw new AgentDeskError('not_found', `no gateway token ${p.id}; tokens.list shows the issued ones`, { id: p.id });
      return revoked;
    },
  };
}
