import {
  Methods,
  type Actor,
  RpcRequestSchema,
  type ErrorShape,
  type MethodName,
  type MethodSpec,
  type RpcRequest,
  type RpcResponse,
} from '../../contract/index.js';
import { AgentDeskError, describeIssues, formatIssuePath, issuesFromZod } from '../errors.js';
import { hasScope, missingScopeMessage } from '../policy/scopes.js';
import { storeFailure } from '../store/openErrors.js';
import type { CallContext, Handlers } from './handlers.js';
import { createIdempotencyGuard, paramsDigest, type IdempotencyStore } from './idempotency.js';
import { eventsSubscribeHandler } from './subscriptions.js';

/** Where the dispatcher reports what callers must not see: handler bugs, store failures. */
export type GatewayLog = (message: string, fields?: Record<string, unknown>) => void;

/** What `createDispatcher` needs. */
export interface DispatcherOptions {
  /** Method handlers; `events.subscribe` has a built-in one that a handler here overrides. */
  handlers: Handlers;
  idempotency: IdempotencyStore;
  /** Defaults to `console.error`. */
  log?: GatewayLog;
  /** Who started a task: a signed-in operator controls only their own (absent: no ownership checks). */
  taskOwner?: (taskId: string) => Promise<Actor | undefined | null>;
}

/** Turns any request frame into exactly one response frame, through the contract's method table. */
export interface Dispatcher {
  /** Validates, authorizes and runs one request. Never throws: every failure is an error frame. */
  dispatch(raw: unknown, ctx: CallContext): Promise<RpcResponse>;
  /** Names of the methods this dispatcher can run, sorted. */
  methods(): string[];
}

/**
 * How deep arrays and objects may nest in a call's params. Real params are a few levels deep;
 * a deeper value would overflow the stack of whatever walks it next (digest, JSON column, redactor).
 */
export const MAX_PARAMS_DEPTH = 64;

type AnyHandler = (params: unknown, ctx: CallContext) => unknown;
type ResolvedMethod = { name: MethodName; spec: MethodSpec; handler: AnyHandler };

/** Builds the dispatcher shared by every transport (WebSocket, Electron IPC). */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const handlers: Handlers = {
    ...options.handlers,
    'events.subscribe': options.handlers['events.subscribe'] ?? eventsSubscribeHandler,
  };
  const log = options.log ?? ((message, fields) => console.error(message, fields));
  const guard = createIdempotencyGuard(options.idempotency, (error, method, idempotencyKey) =>
    log('idempotency store failed to record a result', { method, idempotencyKey, error }),
  );

  const resolve = (name: string): ResolvedMethod => {
    if (!Object.hasOwn(Methods, name)) {
      throw new AgentDeskError('method_not_found', `unknown method '${name}'; system.info lists the methods`, {
        method: name,
      });
    }
    const handler = handlers[name as MethodName] as AnyHandler | undefined;
    if (!handler) {
      throw new AgentDeskError('method_not_found', `method '${name}' is not available on this server`, {
        method: name,
      });
    }
    return { name: name as MethodName, spec: Methods[name as MethodName], handler };
  };

  const runHandler = async (method: ResolvedMethod, params: unknown, ctx: CallContext) => {
    const result = await method.handler(params, ctx);
    const checked = method.spec.result.safeParse(result);
    if (checked.success) return checked.data;
    log('handler returned a result that does not match its schema', {
      method: method.name,
      issues: issuesFromZod(checked.error.issues),
    });
    throw new AgentDeskError('internal', `${method.name} produced an invalid result; see the server log`);
  };

  const call = async (request: RpcRequest, ctx: CallContext): Promise<unknown> => {
    const method = resolve(request.method);
    requireScope(method, ctx);
    const params = parseParams(method, request.params);
    if (options.taskOwner) await requireOwnTask(method, params, ctx, options.taskOwner);
    // A key on a read-only method is harmless and ignored: repeating a read is already safe.
    if (!method.spec.sideEffect || request.idempotencyKey === undefined) return runHandler(method, params, ctx);
    const idempotency = { key: request.idempotencyKey, paramsDigest: paramsDigest(params) };
    return guard.run(method.name, idempotency.key, idempotency.paramsDigest, () => runHandler(method, params, { ...ctx, idempotency }));
  };

  return {
    async dispatch(raw, ctx) {
      let id: RpcResponse['id'] = echoableId(raw);
      try {
        const request = parseFrame(raw);
        id = request.id;
        return { id, result: await call(request, ctx) };
      } catch (error) {
        return { id, error: toSafeShape(error, raw, log) };
      }
    },
    methods: () =>
      Object.keys(handlers)
        .filter((name) => Object.hasOwn(Methods, name) && handlers[name as MethodName] !== undefined)
        .sort(),
  };
}

function parseFrame(raw: unknown): RpcRequest {
  const parsed = RpcRequestSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error.issues);
  throw new AgentDeskError(
    'invalid_request',
    `invalid request frame (expected {id, method, params?, idempotencyKey?}): ${oneLine(issues)}`,
    { issues },
  );
}

function requireScope({ name, spec }: ResolvedMethod, ctx: CallContext): void {
  if (hasScope(ctx.scopes, spec.scope)) return;
  if (spec.orScope !== undefined && hasScope(ctx.scopes, spec.orScope)) return;
  throw new AgentDeskError('forbidden', `${name}: ${missingScopeMessage(spec.scope)}`, {
    method: name,
    required: spec.scope,
    granted: ctx.scopes,
  });
}

/**
 * A method that changes a named task (`operator.write` with a `taskId`) is the task owner's:
 * a signed-in person who is no admin controls only the tasks they started. Tokens that are no
 * person act as the one local operator and keep their scopes' reach.
 */
async function requireOwnTask(
  { name, spec }: ResolvedMethod,
  params: unknown,
  ctx: CallContext,
  taskOwner: NonNullable<DispatcherOptions['taskOwner']>,
): Promise<void> {
  const caller = ctx.caller;
  if (spec.scope !== 'operator.write' || !caller?.signedIn || caller.roles.includes('admin')) return;
  const taskId = (params as { taskId?: unknown } | undefined)?.taskId;
  if (typeof taskId !== 'string') return;
  const owner = await taskOwner(taskId);
  if (owner === undefined || owner?.subject === caller.subject) return; // undefined: no such task, the handler says so
  const whose = owner ? `belongs to ${owner.name}` : 'has no owner';
  throw new AgentDeskError('forbidden', `${name}: task ${taskId} ${whose}; an operator controls only their own tasks (an admin any)`, {
    method: name,
    taskId,
  });
}

function parseParams({ name, spec }: ResolvedMethod, params: unknown): unknown {
  const tooDeep = pathDeeperThan(params, MAX_PARAMS_DEPTH);
  if (tooDeep !== undefined) {
    const path = formatIssuePath(tooDeep);
    throw new AgentDeskError(
      'invalid_params',
      `invalid params for ${name}: arrays and objects nest deeper than ${MAX_PARAMS_DEPTH} levels (at ${path}); send a flatter value`,
      { issues: [{ path, message: `nested deeper than ${MAX_PARAMS_DEPTH} levels` }], maxDepth: MAX_PARAMS_DEPTH },
    );
  }
  const parsed = spec.params.safeParse(params);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error.issues);
  throw new AgentDeskError('invalid_params', `invalid params for ${name}: ${oneLine(issues)}`, { issues });
}

type Nested = { value: object; depth: number; key?: PropertyKey; parent?: Nested };

/**
 * Where a value nests deeper than `max` arrays/objects (its first levels, then `…`), or undefined.
 * Walked with its own stack, depth first, so neither a deep value nor a cycle overflows it.
 */
function pathDeeperThan(value: unknown, max: number): PropertyKey[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Nested[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.depth > max) return shortPath(node);
    for (const [key, child] of Object.entries(node.value)) {
      if (typeof child !== 'object' || child === null) continue;
      stack.push({ value: child, depth: node.depth + 1, key: Array.isArray(node.value) ? Number(key) : key, parent: node });
    }
  }
  return undefined;
}

function shortPath(node: Nested): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Nested | undefined = node; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path.length > 4 ? [...path.slice(0, 4), '…'] : path;
}

/** The id to answer with before the frame is known to be valid: only a string or a number. */
function echoableId(raw: unknown): string | number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Deliberate errors keep their shape; anything else is a bug, logged here and sent generically. */
function toSafeShape(error: unknown, raw: unknown, log: GatewayLog): ErrorShape {
  if (error instanceof AgentDeskError) return error.toShape();
  // A broken disk or database is the user's to fix: say so plainly, not "internal error".
  const store = storeFailure(error);
  if (store) return store.toShape();
  const method = typeof raw === 'object' && raw !== null ? (raw as { method?: unknown }).method : undefined;
  try {
    log('handler failed unexpectedly', { method, error });
  } catch {
    // A broken logger must not turn one failed call into a crashed connection.
  }
  return { code: 'internal', message: 'internal error while handling the request; see the server log' };
}

function oneLine(issues: readonly { path: string; message: string }[]): string {
  return describeIssues(issues).split('\n').join('; ');
}
