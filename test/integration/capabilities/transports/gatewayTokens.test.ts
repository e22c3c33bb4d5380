import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../../electron/contract/index.js';
import { issuedTokenVerifier } from '../../../../electron/capabilities/transports/bearerAuth.js';
import { connectGateway, type GatewayClient } from '../../../../electron/capabilities/transports/wsClient.js';
import { startWsGateway, type WsGateway } from '../../../../electron/capabilities/transports/wsServer.js';
import { REPO_ROOT } from '../../../support/cliSandbox.js';
import { openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { pollUntil } from '../../../support/poll.js';
import { openRaw } from './gatewayHarness.js';

const DEFAULT_TOKEN = 'default-token-for-this-gateway-0123';
const CLEANUP = readFileSync(path.join(REPO_ROOT, 'examples/playbooks/cleanup-old-logs.yaml'), 'utf8');

let h: TestRuntime;
let gateway: WsGateway;
let clients: GatewayClient[] = [];
afterEach(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  clients = [];
  await gateway?.close();
  await h?.cleanup();
});

/** The product's gateway wiring (as `agent-desk serve` does it) over a real runtime. */
async function startGateway(): Promise<void> {
  h = openTestRuntime();
  gateway = await startWsGateway({
    token: DEFAULT_TOKEN,
    dispatcher: h.rt.dispatcher,
    bus: h.rt.bus,
    scopes: ALL_SCOPES,
    tokens: issuedTokenVerifier(h.rt.tokens),
  });
}

async function connect(token: string): Promise<GatewayClient> {
  const client = await connectGateway(gateway.url, token);
  clients.push(client);
  return client;
}

describe('issued gateway tokens', () => {
  it('an approvals-only token lists and decides approvals, and can do nothing else', async () => {
    await startGateway();
    const admin = await connect(DEFAULT_TOKEN);
    const { token, secret } = await admin.call('tokens.create', { scopes: ['operator.approvals'], name: 'phone' });
    expect(token).toMatchObject({ name: 'phone', scopes: ['operator.approvals'] });
    const phone = await connect(secret);
    const pushed: string[] = [];
    phone.onEvent((frame) => pushed.push(frame.event));
    // It may be told about approvals as they come (and only about them).
    await expect(phone.call('events.subscribe', {})).resolves.toEqual({ subscribed: ['approval.requested', 'approval.updated', 'approval.resolved'] });
    await expect(phone.call('events.subscribe', { events: ['task.step'] })).rejects.toMatchObject({ code: 'forbidden' });
    const task = await admin.call('tasks.create', { playbook: { source: CLEANUP } });
    await waitForState(h.rt, task.id, ['waiting_approval']);
    await pollUntil('the approval pushed to the phone', () => pushed.includes('approval.requested') || undefined);
    expect(new Set(pushed)).toEqual(new Set(['approval.requested']));

    const { approvals } = await phone.call('approvals.list', { status: 'pending' });
    expect(approvals).toHaveLength(1);
    const decided = await phone.call('approvals.decide', { approvalId: approvals[0]!.id, decision: 'deny', reason: 'not now' });
    expect(decided).toMatchObject({ status: 'denied', decidedBy: expect.stringMatching(/^token:phone:/) });

    const refused = async (call: Promise<unknown>) =>
      (await call.then(
        () => 'allowed',
        (e: { code: string }) => e.code,
      )) as string;
    expect(await refused(phone.call('tasks.list', {}))).toBe('forbidden');
    expect(await refused(phone.call('tasks.get', { taskId: task.id }))).toBe('forbidden');
    expect(await refused(phone.call('tasks.create', { playbook: { source: CLEANUP } }))).toBe('forbidden');
    expect(await refused(phone.call('tasks.cancel', { taskId: task.id }))).toBe('forbidden');
    expect(await refused(phone.call('system.info', {}))).toBe('forbidden');
    expect(await refused(phone.call('tokens.create', { scopes: ['operator.admin'] }))).toBe('forbidden');
    expect(await h.rt.store.tasks.list({ limit: 10 })).toHaveLength(1);
  });

  it('tokens are stored hashed: the secret is in no database file and no listing', async () => {
    await startGateway();
    const admin = await connect(DEFAULT_TOKEN);
    const { secret } = await admin.call('tokens.create', { scopes: ['operator.read'], name: 'ci' });
    await (await connect(secret)).call('tasks.list', {});
    const listed = await admin.call('tokens.list', {});
    expect(listed.tokens).toHaveLength(1);
    expect(listed.tokens[0]).toMatchObject({ name: 'ci', lastUsedAt: expect.any(String) });
    expect(JSON.stringify(listed)).not.toContain(secret);
    await h.rt.store.sql.get('PRAGMA wal_checkpoint(PASSIVE)');
    for (const file of readdirSync(h.home).filter((f) => f.startsWith('agent-desk.db'))) {
      expect(readFileSync(path.join(h.home, file)).includes(secret), file).toBe(false);
    }
  });

  it('a revoked token is refused at connect and ends connections already open', async () => {
    await startGateway();
    const admin = await connect(DEFAULT_TOKEN);
    const { token, secret } = await admin.call('tokens.create', { scopes: ['operator.read'] });
    const raw = await openRaw(gateway.url, { headers: { authorization: `Bearer ${secret}` } });
    raw.ws.send(JSON.stringify({ id: 1, method: 'tasks.list', params: {} }));
    expect(await raw.next()).toMatchObject({ id: 1, result: { tasks: [] } });

    expect(await admin.call('tokens.revoke', { id: token.id })).toMatchObject({ revokedAt: expect.any(String) });
    raw.ws.send(JSON.stringify({ id: 2, method: 'tasks.list', params: {} }));
    expect(await raw.next()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await raw.closed).code).toBe(1008);
    await expect(openRaw(gateway.url, { headers: { authorization: `Bearer ${secret}` } })).rejects.toMatchObject({ status: 401 });
    await expect(openRaw(gateway.url, { headers: { authorization: 'Bearer adt_guess' } })).rejects.toMatchObject({ status: 401 });
    expect((await admin.call('tokens.list', {})).tokens).toHaveLength(0);
    expect((await admin.call('tokens.list', { includeRevoked: true })).tokens).toHaveLength(1);
  });

  it('a token cannot mint a token with more than it holds (admin does not include secrets)', async () => {
    await startGateway();
    const owner = await connect(DEFAULT_TOKEN);
    const { secret } = await owner.call('tokens.create', { scopes: ['operator.admin'], name: 'ops' });
    const ops = await connect(secret);
    await expect(ops.call('tokens.create', { scopes: ['operator.secrets'] })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('cannot grant operator.secrets'),
    });
    await expect(ops.call('tokens.create', { scopes: ['operator.approvals'] })).resolves.toMatchObject({
      token: { scopes: ['operator.approvals'] },
    });
    expect((await owner.call('tokens.list', {})).tokens.map((t) => t.scopes)).toEqual([['operator.approvals'], ['operator.admin']]);
  });

  it('the default token keeps every scope', async () => {
    await startGateway();
    const admin = await connect(DEFAULT_TOKEN);
    await expect(admin.call('tokens.list', {})).resolves.toEqual({ tokens: [] });
    await expect(admin.call('system.info', {})).resolves.toMatchObject({ name: 'agent-desk' });
    await expect(admin.call('tasks.list', {})).resolves.toEqual({ tasks: [] });
  });

  it('a decision over the default token names the gateway, not a bare connection id', async () => {
    await startGateway();
    const admin = await connect(DEFAULT_TOKEN);
    const task = await admin.call('tasks.create', { playbook: { source: CLEANUP } });
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const { approvals } = await admin.call('approvals.list', { status: 'pending' });
    const decided = await admin.call('approvals.decide', { approvalId: approvals[0]!.id, decision: 'deny', reason: 'not now' });
    expect(decided).toMatchObject({ status: 'denied', decidedBy: expect.stringMatching(/^gateway:[0-9a-f-]{36}$/) });
  });
});
