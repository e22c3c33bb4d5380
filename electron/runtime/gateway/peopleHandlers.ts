import { isoAt, type Clock } from '../clock.js';
import { AgentDeskError } from '../errors.js';
import type { ApprovalBroker } from '../policy/approvalBroker.js';
import type { PeopleRepo } from '../store/peopleRepo.js';
import type { TokenRepo } from '../store/tokenRepo.js';
import { callerOf } from './caller.js';
import type { Handlers } from './handlers.js';

/** What `people.*` uses: the people, their tokens, the approvals their votes count on. */
export interface PeopleParts {
  people: PeopleRepo;
  tokens: TokenRepo;
  approvals: Pick<ApprovalBroker, 'voidVotesOf'>;
  clock: Clock;
}

/**
 * `people.*`. Removing a person (or taking away every role that may decide) revokes their
 * tokens and voids their votes on approvals still waiting: nothing is decided by someone who
 * no longer may decide.
 */
export function peopleHandlers({ people, tokens, approvals, clock }: PeopleParts): Handlers {
  return {
    'people.me': (_p, ctx) => {
      const { subject, name, roles, groups } = callerOf(ctx);
      return { subject, name, roles: [...roles], groups: [...groups] };
    },
    'people.list': async () => ({ people: await people.list() }),
    'people.update': async (p) => {
      const before = await people.get(p.subject);
      if (!before)
        throw new AgentDeskError('not_found', `no person ${p.subject}; people.list shows who has signed in`, { subject: p.subject });
      const at = isoAt(clock.now());
      const after = (await people.update(p.subject, {
        ...(p.roles !== undefined && { roles: p.roles }),
        ...(p.disabled !== undefined && { disabledAt: p.disabled ? at : null }),
      }))!;
      if (after.disabledAt !== undefined) await tokens.revokeAllOf(p.subject, at);
      const mayStillDecide = after.disabledAt === undefined && after.roles.some((r) => r === 'approver' || r === 'admin');
      if (!mayStillDecide) await approvals.voidVotesOf(p.subject);
      return after;
    },
  };
}
