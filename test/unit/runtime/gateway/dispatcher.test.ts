import { describe, expect, it, vi } from 'vitest';
import { ALL_SCOPES, Methods, type MethodName, type Scope } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import {
  createDispatcher,
  type CallContext,
  type Dispatcher,
  type EventFilter,
  type Handlers,
} from '../../../../electron/runtime/gateway/index.js';
import { aTask, anApproval, memoryIdempotencyStore } from './gatewayFixtures.js';

const READ_ONLY: CallContext = { scopes: ['operator.read'], clientId: 'reader' };
const ADMIN: CallContext = { scopes: ['operator.admin'], clientId: 'admin' };
const EVERYTHING: CallContext = { scopes: ALL_SCOPES, clientId: 'owner' };

function setup(extra: Handlers = {}) {
  const logged: { message: string; fields?: Record<string, unknown> }[] = [];
  const calls = { create: 0 };
  let dispatcher: Dispatcher;
  const handlers: Handlers = {
    'system.info': () => ({
      name: 'agent-desk',
      version: '0.1.0',
      node: process.version,
      home: '/tmp/home',
      pid: process.pid,
      startedAt: '2025-01-01T00:00:00.000Z',
      methods: dispatcher.methods(),
    }),
    'tasks.get': ({ taskId }) => {
      throw new AgentDeskError('not_found', `no task ${taskId}; tasks.list shows the known tasks`, { taskId });
    },
    'tasks.create': async (params) => {
      calls.create += 1;
      return aTask({ id: `t${calls.create}`, title: params.title ?? 'untitled' });
    },
    'tasks.list': () => {
      throw new Error('database is locked at /home/secret/agent.db');
    },
    'tasks.pause': () => ({ surprise: true }) as never,
    'approvals.decide': (params) => anApproval({ status: params.decision === 'approve' ? 'approved' : 'denied' }),
    ...extra,
  };
  dispatcher = createDispatcher({
    handlers,
    idempotency: memoryIdempotencyStore(),
    log: (message, fields) => void logged.push({ message, fields }),
  });
  return { dispatcher, logged, calls };
}

describe('dispatcher: frames', () => {
  it('answers a valid call with its result and the same id', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 'r1', method: 'system.info' }, READ_ONLY);
    expect(response).toMatchObject({ id: 'r1', result: { name: 'agent-desk' } });
  });

  it.each([
    ['a string', 'hello', null],
    ['null', null, null],
    ['an array', [1, 2], null],
    ['a frame without method', { id: 7 }, 7],
    ['a frame with a boolean id', { id: true, method: 'system.info' }, null],
    ['a frame with a numeric method', { id: 'x', method: 42 }, 'x'],
    ['a frame with an unknown field', { id: 3, method: 'system.info', extra: 1 }, 3],
    ['a frame with a fractional id', { id: 1.5, method: 'system.info' }, 1.5],
  ])('rejects %s as invalid_request, echoing a usable id', async (_label, raw, id) => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch(raw, READ_ONLY);
    expect(response.id).toBe(id);
    expect(response).toMatchObject({ error: { code: 'invalid_request' } });
    if ('error' in response) expect(response.error.details).toMatchObject({ issues: expect.any(Array) });
  });

  it('names the offending field of a bad frame', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 42 }, READ_ONLY);
    expect(response).toMatchObject({
      error: { code: 'invalid_request', details: { issues: [{ path: 'method' }] } },
    });
  });
});

describe('dispatcher: methods', () => {
  it.each(['nope.nothing', 'toString', '__proto__', 'constructor'])('unknown method %s is method_not_found', async (method) => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 1, method }, EVERYTHING);
    expect(response).toMatchObject({ id: 1, error: { code: 'method_not_found' } });
  });

  it('a contract method without a handler is method_not_found', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'tools.catalog' }, EVERYTHING);
    expect(response).toMatchObject({ error: { code: 'method_not_found', message: expect.stringContaining('tools.catalog') } });
  });

  it('lists the methods it can run, sorted, including the built-in events.subscribe', () => {
    const { dispatcher } = setup();
    expect(dispatcher.methods()).toEqual([
      'approvals.decide',
      'events.subscribe',
      'system.info',
      'tasks.create',
      'tasks.get',
      'tasks.list',
      'tasks.pause',
    ]);
  });
});

describe('dispatcher: scopes', () => {
  const decide = { id: 1, method: 'approvals.decide', params: { approvalId: 'a1', decision: 'approve' } };

  it('a read-only session cannot decide approvals, and is told which scope is missing', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch(decide, READ_ONLY);
    expect(response).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('operator.approvals') } });
  });

  it('a read-only session cannot create tasks', async () => {
    const { dispatcher, calls } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'tasks.create', params: { playbook: { source: 'x' } } }, READ_ONLY);
    expect(response).toMatchObject({ error: { code: 'forbidden' } });
    expect(calls.create).toBe(0);
  });

  it('admin may decide approvals, create tasks and read', async () => {
    const { dispatcher } = setup();
    expect(await dispatcher.dispatch(decide, ADMIN)).toMatchObject({ result: { status: 'approved' } });
    const created = await dispatcher.dispatch({ id: 2, method: 'tasks.create', params: { playbook: { source: 'x' } } }, ADMIN);
    expect(created).toMatchObject({ result: { id: 't1' } });
    expect(await dispatcher.dispatch({ id: 3, method: 'system.info' }, ADMIN)).toHaveProperty('result');
  });

  it('scope is checked before params, so a caller without rights learns nothing about the params', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'approvals.decide', params: 'garbage' }, READ_ONLY);
    expect(response).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('admin passes the scope check of every method except those needing operator.secrets', async () => {
    const names = Object.keys(Methods) as MethodName[];
    const refuseAfterScope = () => {
      throw new AgentDeskError('unavailable', 'scope check passed');
    };
    const handlers = Object.fromEntries(names.map((name) => [name, refuseAfterScope])) as Handlers;
    const dispatcher = createDispatcher({ handlers, idempotency: memoryIdempotencyStore(), log: () => undefined });
    for (const name of names) {
      const params = Methods[name].params.safeParse(undefined).success ? undefined : 'not checked before scope';
      const response = await dispatcher.dispatch({ id: name, method: name, params }, ADMIN);
      const code = 'error' in response ? response.error.code : undefined;
      if (Methods[name].scope === 'operator.secrets') expect(code, name).toBe('forbidden');
      else expect(code, name).not.toBe('forbidden');
    }
  });

  it('a session with no scopes cannot even read', async () => {
    const { dispatcher } = setup();
    const none: Scope[] = [];
    const response = await dispatcher.dispatch({ id: 1, method: 'system.info' }, { scopes: none, clientId: 'x' });
    expect(response).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('operator.read') } });
  });
});

describe('dispatcher: params', () => {
  it('missing taskId is invalid_params with a located issue', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'tasks.get', params: {} }, READ_ONLY);
    expect(response).toMatchObject({
      id: 1,
      error: { code: 'invalid_params', message: expect.stringContaining('taskId'), details: { issues: [{ path: 'taskId' }] } },
    });
  });

  it('lists every problem, nested paths included', async () => {
    const { dispatcher } = setup();
    const params = { playbook: { source: 5 }, inputs: { n: [1] }, bogus: true };
    const response = await dispatcher.dispatch({ id: 1, method: 'tasks.create', params }, EVERYTHING);
    if (!('error' in response)) throw new Error('expected an error');
    const paths = (response.error.details as { issues: { path: string }[] }).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['playbook.source', 'inputs.n']));
    expect(response.error.message).toContain('playbook.source');
  });

  it('defaults are applied before the handler sees the params', async () => {
    let seen: unknown;
    const { dispatcher } = setup({ 'tasks.list': (params) => ((seen = params), { tasks: [] }) });
    await dispatcher.dispatch({ id: 1, method: 'tasks.list' }, READ_ONLY);
    expect(seen).toEqual({ limit: 50 });
  });
});

describe('dispatcher: handler errors', () => {
  it('an AgentDeskError from a handler keeps its code, message and details', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'tasks.get', params: { taskId: 'zz' } }, READ_ONLY);
    expect(response).toEqual({
      id: 1,
      error: { code: 'not_found', message: 'no task zz; tasks.list shows the known tasks', details: { taskId: 'zz' } },
    });
  });

  it('any other error is internal with a generic message; the real one goes to the log', async () => {
    const { dispatcher, logged } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'tasks.list' }, READ_ONLY);
    expect(response).toMatchObject({ error: { code: 'internal' } });
    expect(JSON.stringify(response)).not.toMatch(/database|secret|Error|stack/);
    expect(logged).toHaveLength(1);
    expect(String((logged[0]?.fields?.error as Error).message)).toContain('database is locked');
  });

  it('a result that breaks the result schema is internal and logged as a bug', async () => {
    const { dispatcher, logged } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'tasks.pause', params: { taskId: 't1' } }, EVERYTHING);
    expect(response).toMatchObject({ error: { code: 'internal', message: expect.stringContaining('tasks.pause') } });
    expect(logged[0]?.message).toMatch(/does not match its schema/);
  });

  it('never throws, whatever the handler throws and even when the log throws', async () => {
    const dispatcher = createDispatcher({
      handlers: {
        'tasks.list': () => {
          throw undefined;
        },
      },
      idempotency: memoryIdempotencyStore(),
      log: () => {
        throw new Error('log is down');
      },
    });
    await expect(dispatcher.dispatch({ id: 1, method: 'tasks.list' }, READ_ONLY)).resolves.toMatchObject({
      error: { code: 'internal' },
    });
  });
});

describe('dispatcher: idempotency', () => {
  const create = (id: number, title: string, idempotencyKey?: string) => ({
    id,
    method: 'tasks.create',
    params: { title, playbook: { source: 'steps: []' } },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

  it('a repeat with the same key and params returns the first result without running again', async () => {
    const { dispatcher, calls } = setup();
    const first = await dispatcher.dispatch(create(1, 'A', 'k1'), EVERYTHING);
    const second = await dispatcher.dispatch(create(2, 'A', 'k1'), EVERYTHING);
    expect(calls.create).toBe(1);
    expect(second).toEqual({ id: 2, result: (first as { result: unknown }).result });
  });

  it('key order in params does not make a repeat look different', async () => {
    const { dispatcher, calls } = setup();
    await dispatcher.dispatch(
      { id: 1, method: 'tasks.create', idempotencyKey: 'k', params: { title: 'A', playbook: { source: 's' } } },
      EVERYTHING,
    );
    const again = await dispatcher.dispatch(
      { id: 2, method: 'tasks.create', idempotencyKey: 'k', params: { playbook: { source: 's' }, title: 'A' } },
      EVERYTHING,
    );
    expect(again).toHaveProperty('result');
    expect(calls.create).toBe(1);
  });

  it('a repeat with the same key and different params is a conflict', async () => {
    const { dispatcher, calls } = setup();
    await dispatcher.dispatch(create(1, 'A', 'k1'), EVERYTHING);
    const response = await dispatcher.dispatch(create(2, 'B', 'k1'), EVERYTHING);
    expect(response).toMatchObject({ id: 2, error: { code: 'conflict', message: expect.stringContaining('k1') } });
    expect(calls.create).toBe(1);
  });

  it('calls without a key run every time', async () => {
    const { dispatcher, calls } = setup();
    await dispatcher.dispatch(create(1, 'A'), EVERYTHING);
    await dispatcher.dispatch(create(2, 'A'), EVERYTHING);
    expect(calls.create).toBe(2);
  });

  it('the same key on another method is independent', async () => {
    const { dispatcher } = setup();
    await dispatcher.dispatch(create(1, 'A', 'shared'), EVERYTHING);
    const decided = await dispatcher.dispatch(
      { id: 2, method: 'approvals.decide', idempotencyKey: 'shared', params: { approvalId: 'a1', decision: 'deny' } },
      EVERYTHING,
    );
    expect(decided).toMatchObject({ result: { status: 'denied' } });
  });

  it('a key on a read method is ignored', async () => {
    let reads = 0;
    const { dispatcher } = setup({ 'tasks.list': () => ((reads += 1), { tasks: [] }) });
    await dispatcher.dispatch({ id: 1, method: 'tasks.list', idempotencyKey: 'k', params: { limit: 1 } }, READ_ONLY);
    const other = await dispatcher.dispatch({ id: 2, method: 'tasks.list', idempotencyKey: 'k', params: { limit: 2 } }, READ_ONLY);
    expect(other).toHaveProperty('result');
    expect(reads).toBe(2);
  });

  it('a failed call is not remembered, so the same key can be retried', async () => {
    let attempts = 0;
    const { dispatcher } = setup({
      'tasks.create': () => {
        attempts += 1;
        if (attempts === 1) throw new AgentDeskError('unavailable', 'sandbox is starting; retry');
        return aTask();
      },
    });
    expect(await dispatcher.dispatch(create(1, 'A', 'k'), EVERYTHING)).toMatchObject({ error: { code: 'unavailable' } });
    expect(await dispatcher.dispatch(create(2, 'A', 'k'), EVERYTHING)).toHaveProperty('result');
  });

  it('a repeat that arrives while the first is still running waits for it instead of running twice', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const { dispatcher } = setup({ 'tasks.create': async () => (runs++, await gate, aTask()) });
    const first = dispatcher.dispatch(create(1, 'A', 'k'), EVERYTHING);
    const second = dispatcher.dispatch(create(2, 'A', 'k'), EVERYTHING);
    const conflicting = await dispatcher.dispatch(create(3, 'B', 'k'), EVERYTHING);
    release();
    expect(await first).toHaveProperty('result');
    expect(await second).toHaveProperty('result');
    expect(conflicting).toMatchObject({ error: { code: 'conflict' } });
    expect(runs).toBe(1);
  });

  it('a repeat whose store read began before the first answer was stored still joins the first call', async () => {
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    let answerRead!: () => void;
    const reading = new Promise<void>((resolve) => (answerRead = resolve));
    const records = memoryIdempotencyStore();
    let reads = 0;
    let runs = 0;
    const dispatcher = createDispatcher({
      handlers: { 'tasks.create': async () => (runs++, await finishing, aTask()) },
      idempotency: {
        // The second read sees the store as it was when it began (nothing stored), and answers late.
        get: async (m, k) => {
          const found = await records.get(m, k);
          if (++reads === 2) await reading;
          return found;
        },
        put: (...record) => records.put(...record),
      },
      log: () => undefined,
    });
    const first = dispatcher.dispatch(create(1, 'A', 'k'), EVERYTHING);
    await vi.waitFor(() => expect(runs).toBe(1));
    const second = dispatcher.dispatch(create(2, 'A', 'k'), EVERYTHING);
    finish();
    expect(await first).toHaveProperty('result');
    answerRead();
    expect(await second).toHaveProperty('result');
    expect(runs).toBe(1);
  });
});

describe('dispatcher: events.subscribe', () => {
  it('hands the filter to the connection and reports the subscribed events', async () => {
    const filters: EventFilter[] = [];
    const { dispatcher } = setup();
    const ctx: CallContext = { ...READ_ONLY, subscribe: (filter) => void filters.push(filter) };
    const response = await dispatcher.dispatch(
      { id: 1, method: 'events.subscribe', params: { events: ['task.updated'], taskId: 't1' } },
      ctx,
    );
    expect(response).toEqual({ id: 1, result: { subscribed: ['task.updated'] } });
    expect(filters).toEqual([{ events: ['task.updated'], taskId: 't1' }]);
  });

  it('is unavailable on a context that cannot push events', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.dispatch({ id: 1, method: 'events.subscribe' }, READ_ONLY);
    expect(response).toMatchObject({ error: { code: 'unavailable' } });
  });
});
