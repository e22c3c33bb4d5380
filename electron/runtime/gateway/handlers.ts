import type { Caller, EventName, MethodName, MethodResult, ParsedParams, Scope } from '../../contract/index.js';

/** Which pushed events a subscriber wants: by name and/or by task. Empty means everything. */
export interface EventFilter {
  events?: readonly EventName[];
  taskId?: string;
}

/** Who is calling and what the transport can do for them; built once per connection. */
export interface CallContext {
  /** Scopes granted to this session; the dispatcher checks them before any handler runs. */
  scopes: readonly Scope[];
  /** Stable per connection; shows up in logs and decisions (`decidedBy`). */
  clientId: string;
  /**
   * The person signed in on this connection. Absent for the gateway's own token and tokens
   * issued to nobody: those act as the one local operator (`callerOf`).
   */
  caller?: Caller;
  /**
   * Adds an event filter to this connection. Absent when the transport cannot push
   * (a one-shot HTTP call, say), in which case `events.subscribe` answers `unavailable`.
   */
  subscribe?: (filter: EventFilter) => void;
  /**
   * The request's idempotency key (side-effecting methods only). A handler whose effect is one
   * SQLite write records its first answer in that same transaction, so no crash can come between.
   */
  idempotency?: { key: string; paramsDigest: string };
}

/** The handler of one method: receives validated params, returns the method's result. */
export type Handler<M extends MethodName> = (params: ParsedParams<M>, ctx: CallContext) => Promise<MethodResult<M>> | MethodResult<M>;

/** The behaviour half of the method table; a method without a handler is `method_not_found`. */
export type Handlers = { [M in MethodName]?: Handler<M> };
