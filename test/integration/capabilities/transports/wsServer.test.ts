import { afterEach, describe, expect, it } from 'vitest';
import type { EventFrame } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import { createEventBus, type EventBus } from '../../../../electron/runtime/gateway/index.js';
import { connectGateway, type GatewayClient } from '../../../../electron/capabilities/transports/wsClient.js';
import { startWsGateway } from '../../../../electron/capabilities/transports/wsServer.js';
import { aTask, anApproval } from '../../../unit/runtime/gateway/gatewayFixtures.js';
import { openRaw, startHarness, TOKEN, type Harness } from './gatewayHarness.js';

let harness: Harness | undefined;
const clients: GatewayClient[] = [];

async function start(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  harness = await startHarness(options);
  return harness;
}

async function connect(h: Harness): Promise<GatewayClient> {
  const client = await connectGateway(h.gateway.url, TOKEN);
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await harness?.gateway.close();
  harness = undefined;
});

describe('ws gateway: authentication', () => {
  it('a missing token is refused with HTTP 401', async () => {
    const h = await start();
    await expect(openRaw(h.gateway.url)).rejects.toMatchObject({ status: 401 });
  });

  it('a wrong token is refused with HTTP 401, and the client reports unauthorized', async () => {
    const h = await start();
    await expect(openRaw(h.gateway.url, { headers: { authorization: 'Bearer nope' } })).rejects.toMatchObject({ status: 401 });
    const refused = connectGateway(h.gateway.url, 'wrong-token');
    await expect(refused).rejects.toBeInstanceOf(AgentDeskError);
    await expect(refused).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('a token of a different length is refused without error', async () => {
    const h = await start();
    await expect(openRaw(`${h.gateway.url}?token=x`)).rejects.toMatchObject({ status: 401 });
  });

  it('the Authorization header works', async () => {
    const h = await start();
    const client = await connect(h);
    expect(await client.call('system.info', {})).toMatchObject({ name: 'agent-desk' });
  });

  it('the ?token= query works', async () => {
    const h = await start();
    const raw = await openRaw(`${h.gateway.url}?token=${TOKEN}`);
    raw.ws.send(JSON.stringify({ id: 1, method: 'system.info' }));
    expect(await raw.next()).toMatchObject({ id: 1, result: { name: 'agent-desk' } });
    raw.ws.close();
  });

  it('the bearer subprotocol works, and the server answers with a protocol browsers accept', async () => {
    const h = await start();
    const raw = await openRaw(h.gateway.url, {}, ['agent-desk.v1', `bearer.${TOKEN}`]);
    expect(raw.ws.protocol).toBe('agent-desk.v1');
    raw.ws.send(JSON.stringify({ id: 'a', method: 'system.info' }));
    expect(await raw.next()).toMatchObject({ id: 'a', result: { name: 'agent-desk' } });
    raw.ws.close();

    const only = await openRaw(h.gateway.url, {}, [`bearer.${TOKEN}`]);
    expect(only.ws.protocol).toBe(`bearer.${TOKEN}`);
    only.ws.close();
  });

  it('an upgrade on another path is refused with 404', async () => {
    const h = await start();
    const url = h.gateway.url.replace('/rpc', '/other');
    await expect(openRaw(url, { headers: { authorization: `Bearer ${TOKEN}` } })).rejects.toMatchObject({ status: 404 });
  });
});

describe('ws gateway: HTTP', () => {
  it('GET /healthz answers without a token', async () => {
    const h = await start();
    const res = await fetch(`${h.gateway.httpUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('other paths are 404 without an httpHandler', async () => {
    const h = await start();
    const res = await fetch(`${h.gateway.httpUrl}/index.html`);
    expect(res.status).toBe(404);
    await res.body?.cancel();
  });

  it('other paths go to the httpHandler when given; a failing one answers 500', async () => {
    const h = await start({
      httpHandler: (req, res) => {
        if (req.url === '/boom') throw new Error('handler bug');
        res.end('web ui');
      },
    });
    expect(await (await fetch(`${h.gateway.httpUrl}/`)).text()).toBe('web ui');
    expect((await fetch(`${h.gateway.httpUrl}/boom`)).status).toBe(500);
  });

  it('refuses to listen on a non-loopback address unless allowRemote is set', async () => {
    const h = await start();
    await expect(startWsGateway({ host: '0.0.0.0', token: TOKEN, dispatcher: h.dispatcher, bus: h.bus })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('allowRemote'),
    });
  });

  it('refuses an empty token', async () => {
    const h = await start();
    await expect(startWsGateway({ token: '', dispatcher: h.dispatcher, bus: h.bus })).rejects.toMatchObject({
      code: 'invalid_params',
    });
  });
});

describe('ws gateway: RPC', () => {
  it('a typed error reaches the client with its code, message and details', async () => {
    const h = await start();
    const client = await connect(h);
    const failed = client.call('tasks.get', {} as never);
    await expect(failed).rejects.toBeInstanceOf(AgentDeskError);
    await expect(failed).rejects.toMatchObject({
      code: 'invalid_params',
      details: { issues: [{ path: 'taskId', message: expect.any(String) }] },
    });
    await expect(client.call('tasks.get', { taskId: 'zz' })).rejects.toMatchObject({ code: 'not_found', message: 'no task zz' });
  });

  it('an idempotency key sent by the client replays the first result', async () => {
    const h = await start();
    const client = await connect(h);
    const params = { title: 'A', playbook: { source: 'steps: []' } };
    const first = await client.call('tasks.create', params, { idempotencyKey: 'k1' });
    const again = await client.call('tasks.create', params, { idempotencyKey: 'k1' });
    expect(again).toEqual(first);
    await expect(client.call('tasks.create', { ...params, title: 'B' }, { idempotencyKey: 'k1' })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('a non-JSON text frame gets invalid_request with id null and the connection stays usable', async () => {
    const h = await start();
    const raw = await openRaw(h.gateway.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    raw.ws.send('{not json');
    expect(await raw.next()).toMatchObject({ id: null, error: { code: 'invalid_request', message: expect.stringMatching(/^not JSON: /) } });
    raw.ws.send(Buffer.from(JSON.stringify({ id: 1, method: 'system.info' })), { binary: true });
    expect(await raw.next()).toMatchObject({ id: null, error: { code: 'invalid_request', message: expect.stringContaining('binary') } });
    raw.ws.send(JSON.stringify({ id: 2, method: 'system.info' }));
    expect(await raw.next()).toMatchObject({ id: 2, result: { name: 'agent-desk' } });
    raw.ws.close();
  });

  it('a frame over 1 MiB closes only that connection (1009); the gateway keeps serving', async () => {
    const h = await start();
    const raw = await openRaw(h.gateway.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    raw.ws.on('error', () => undefined);
    raw.ws.send(JSON.stringify({ id: 1, method: 'tasks.message', params: { text: 'x'.repeat(1_100_000) } }));
    expect((await raw.closed).code).toBe(1009);
    const client = await connect(h);
    expect(await client.call('system.info', {})).toMatchObject({ name: 'agent-desk' });
  });

  it('closing the gateway closes clients with 1001 and rejects their later calls as unavailable', async () => {
    const h = await start();
    const client = await connect(h);
    await h.gateway.close();
    await expect(client.call('system.info', {})).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('1001'),
    });
  });
});

describe('ws gateway: events', () => {
  /** Counts live bus listeners, to see subscriptions go away with their connection. */
  function countingBus(bus: EventBus): EventBus & { active(): number } {
    let active = 0;
    return {
      emit: (name, payload) => bus.emit(name, payload),
      on(filter, listener) {
        active++;
        const off = bus.on(filter, listener);
        return () => (active--, off());
      },
      wantsElsewhere: (name) => bus.wantsElsewhere(name),
      active: () => active,
    };
  }

  /** A round trip on the same connection: everything pushed before it has arrived. */
  const drain = (client: GatewayClient) => client.call('system.info', {});

  it('events reach only the connections that subscribed, filtered as asked', async () => {
    const h = await start();
    const [byTask, quiet, everything] = [await connect(h), await connect(h), await connect(h)];
    const got = { byTask: [] as EventFrame[], quiet: [] as EventFrame[], everything: [] as EventFrame[] };
    byTask.onEvent((f) => got.byTask.push(f));
    quiet.onEvent((f) => got.quiet.push(f));
    everything.onEvent((f) => got.everything.push(f));
    expect(await byTask.call('events.subscribe', { events: ['task.updated'], taskId: 't1' })).toEqual({
      subscribed: ['task.updated'],
    });
    await everything.call('events.subscribe', {});

    h.bus.emit('task.updated', aTask({ id: 't1' }));
    h.bus.emit('task.updated', aTask({ id: 't2' }));
    h.bus.emit('approval.requested', anApproval({ taskId: 't1' }));
    await Promise.all([drain(byTask), drain(quiet), drain(everything)]);

    expect(got.byTask.map((f) => [f.event, (f.data as { id: string }).id])).toEqual([['task.updated', 't1']]);
    expect(got.quiet).toEqual([]);
    expect(got.everything.map((f) => f.event)).toEqual(['task.updated', 'task.updated', 'approval.requested']);
  });

  it('a closed connection leaves no listener on the bus', async () => {
    const bus = countingBus(createEventBus());
    const h = await start({ bus });
    const client = await connect(h);
    await client.call('events.subscribe', {});
    await client.call('events.subscribe', { taskId: 't1' });
    expect(bus.active()).toBe(1);
    await client.close();
    await expect.poll(() => bus.active()).toBe(0);
    expect(() => h.bus.emit('task.updated', aTask())).not.toThrow();
  });

  it('a consumer that stops reading is closed with 1013 once too much is buffered', async () => {
    const h = await start({ maxBufferedBytes: 256 * 1024 });
    const raw = await openRaw(h.gateway.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    raw.ws.send(JSON.stringify({ id: 1, method: 'events.subscribe' }));
    await raw.next();
    raw.ws.pause();
    const big = aTask({ stateReason: 'x'.repeat(256 * 1024) });
    // Enough to fill the kernel's socket buffers and then the gateway's own limit.
    for (let i = 0; i < 400; i++) h.bus.emit('task.updated', big);
    raw.ws.resume();
    expect((await raw.closed).code).toBe(1013);
  });
});
