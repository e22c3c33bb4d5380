import { EVENT_NAMES, type EventFrame, type EventName } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';
import { hasScope } from '../policy/scopes.js';
import { matchesFilter, type EventBus } from './eventBus.js';
import type { EventFilter, Handler } from './handlers.js';

/** The event subscriptions of one connection: what `CallContext.subscribe` adds to. */
export interface ConnectionSubscriptions {
  /** Adds a filter; the connection then receives events matching any of its filters, once each. */
  subscribe(filter: EventFilter): void;
  /** Drops every filter and detaches from the bus; call when the connection closes. */
  close(): void;
}

/**
 * Per-connection subscriptions over one bus listener, so an event matched by two filters
 * (say `taskId: A` and `events: [task.step]`) is sent once, and closing removes it all.
 */
export function createConnectionSubscriptions(bus: EventBus, send: (frame: EventFrame) => void): ConnectionSubscriptions {
  const filters: EventFilter[] = [];
  let detach: (() => void) | undefined;
  let closed = false;
  return {
    subscribe(filter) {
      if (closed) return;
      filters.push(filter);
      // A person's view: news of tasks run by other processes on the same store too.
      detach ??= bus.on(
        {},
        (frame) => {
          if (filters.some((f) => matchesFilter(f, frame))) send(frame);
        },
        { elsewhere: true },
      );
    },
    close() {
      closed = true;
      filters.length = 0;
      detach?.();
      detach = undefined;
    },
  };
}

/**
 * The built-in `events.subscribe` handler: it hands the filter to the connection, which is
 * why subscriptions live exactly as long as the connection that made them.
 */
export const eventsSubscribeHandler: Handler<'events.subscribe'> = (params, ctx) => {
  if (!ctx.subscribe) {
    throw new AgentDeskError('unavailable', 'this connection cannot receive pushed events; subscribe over a WebSocket connection');
  }
  const filter = hasScope(ctx.scopes, 'operator.read') ? params : approvalsOnly(params);
  ctx.subscribe(filter);
  return { subscribed: [...(filter.events ?? EVENT_NAMES)] };
};

/** The events an approvals-only client (no operator.read) may receive. */
const APPROVAL_EVENTS: readonly EventName[] = ['approval.requested', 'approval.updated', 'approval.resolved'];

/** Narrows a filter to approval events; asking for any other is `forbidden`. */
function approvalsOnly(params: EventFilter): EventFilter {
  const beyond = (params.events ?? []).filter((e) => !APPROVAL_EVENTS.includes(e));
  if (beyond.length > 0) {
    throw new AgentDeskError(
      'forbidden',
      `events.subscribe: ${beyond.join(', ')} need operator.read; this session may receive approval events only`,
      {
        events: beyond,
      },
    );
  }
  return { ...params, events: params.events ?? APPROVAL_EVENTS };
}
