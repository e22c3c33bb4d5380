import { AgentDeskError } from '../errors.js';
import { hasScope } from '../policy/scopes.js';
import type { TokenRepo } from '../store/tokenRepo.js';
import type { Handlers } from './handlers.js';

/** `tokens.*`: issue, list and revoke gateway tokens (admin only, by the method table); `storeName` says which store a miss looked in. */
export function tokenHandlers(tokens: TokenRepo, now: () => number, storeName?: string): Handlers {
  const where = storeName === undefined ? '' : ` in ${storeName}`;
  const at = () => new Date(now()).toISOString();
  return {
    'tokens.create': (p, ctx) => {
      // No escalation: operator.admin does not hold operator.secrets, so it cannot mint a token that does.
      const beyond = p.scopes.filter((scope) => !hasScope(ctx.scopes, scope));
      if (beyond.length > 0) {
        throw new AgentDeskError('forbidden', `tokens.create: cannot grant ${beyond.join(', ')}, which this session does not hold`, {
          scopes: beyond,
          granted: ctx.scopes,
        });
      }
      // A signed-in person's token is theirs: it acts as them, within their roles.
      return tokens.issue(p.scopes, p.name, at(), ctx.caller?.signedIn ? { subject: ctx.caller.subject } : {});
    },
    'tokens.list': async (p) => ({ tokens: await tokens.list(p.includeRevoked) }),
    'tokens.revoke': async (p) => {
      const revoked = await tokens.revoke(p.id, at());
      if (!revoked)
        throw new AgentDeskError('not_found', `no gateway token ${p.id}${where}; tokens.list shows the issued ones`, {
          id: p.id,
          ...(storeName !== undefined && { store: storeName }),
        });
      return revoked;
    },
  };
}
