import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectGateway } from '../../../electron/capabilities/transports/wsClient.js';
import type { Approval } from '../../../electron/contract/index.js';
import { explain, type CliSandbox } from '../../support/cliSandbox.js';
import { startTestProvider, type TestAccount, type TestProvider } from '../../support/oidcProvider.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { freePort, startServeOn, type ServeProcess } from '../../support/serveProcess.js';
import { useUiSession } from '../renderer/uiSession.js';
import { TIDY } from '../renderer/taskStates.js';

const skip = missing('chromium');
const ACCOUNTS: TestAccount[] = [
  { id: 'bob', name: 'Bob', email: 'bob@example.test', groups: ['finance'] },
  { id: 'eve', name: 'Eve', email: 'eve@example.test', groups: ['finance'] },
];

const ui = useUiSession(skip);
let provider: TestProvider | undefined;
let cli: CliSandbox | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function startGateway(): Promise<{ serve: ServeProcess; url: string }> {
  cli = ui.home();
  const port = await freePort();
  provider = await startTestProvider(ACCOUNTS, [`http://127.0.0.1:${port}/auth/callback`]);
  const oidc = {
    issuer: provider.issuer,
    clientId: provider.clientId,
    cliClientId: 'agent-desk-cli',
    allowInsecureIssuer: true,
    scopes: ['openid', 'profile', 'email', 'groups'],
    roles: { approver: ['finance'] },
  };
  const config = { auth: { oidc }, policy: { approvals: { delete: { approvers: 2 } } } };
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify(config));
  const serve = await startServeOn(cli, port);
  return { serve, url: serve.info.httpUrl };
}

/** `agent-desk login`, finished in a browser the way a person does: the printed address, the provider's form. */
async function login(url: string, who: string): Promise<string> {
  const child = cli!.spawn(['login', '--gateway', url]);
  const [, address] = await child.waitForOutput(/Open this address to sign in:\n\s+(\S+)/);
  const page = await (await ui.browser.newContext()).newPage();
  await page.goto(address!);
  await page.locator('input[name="login"]').fill(who);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('Signed in. You can close this tab').waitFor({ timeout: 30_000 });
  await page.context().close();
  const done = await child.finished(30_000);
  expect(done.code, child.describe()).toBe(0);
  return done.stdout;
}

const exchange = (url: string, idToken: unknown) =>
  fetch(`${url}/auth/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id_token: idToken }),
  });

describe.skipIf(skip)(`agent-desk login and the gateway's ID token exchange${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a person signs in from the terminal (loopback + PKCE) and their approval counts as theirs, through the gateway', async () => {
    const { serve, url } = await startGateway();
    expect(await login(url, 'bob')).toContain(`Signed in as Bob (approver) at ${url}`);
    const whoami = await cli!.run(['whoami']);
    expect(whoami.stdout, explain(whoami)).toBe('Bob (approver)\n');

    const admin = await serve.connect();
    try {
      const task = await admin.call('tasks.create', { playbook: { source: TIDY } });
      const approval = await pollUntil(
        'the delete asks',
        async () => (await admin.call('approvals.list', { taskId: task.id, status: 'pending' })).approvals[0],
      );
      const voted = await cli!.run(['approvals', 'approve', approval.id]);
      expect(voted.stdout, explain(voted)).toContain(`${approval.id} pending (your agreement is recorded; more people must approve)`);
      const [after] = (await admin.call('approvals.list', { taskId: task.id })).approvals as Approval[];
      expect(after?.votes).toMatchObject([{ by: { name: 'Bob' }, decision: 'approve', counted: true }]);

      // Signed out, the CLI does not fall back to deciding as the data folder's owner.
      expect((await cli!.run(['logout'])).stdout).toBe('Signed out.\n');
      const refused = await cli!.run(['approvals', 'approve', approval.id, '--json']);
      expect(refused.code).not.toBe(0);
      expect(refused.json()).toMatchObject({ error: { code: 'unauthorized', message: expect.stringContaining('agent-desk login') } });
    } finally {
      await admin.close();
    }
  }, 180_000);

  it('refuses an ID token for another audience, an expired one, one presented twice and one with a forged group claim; each is logged without the token', async () => {
    const { serve, url } = await startGateway();
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: provider!.issuer,
      aud: provider!.clientId,
      sub: 'eve',
      name: 'Eve',
      groups: ['finance'],
      iat: now,
      exp: now + 300,
    };
    const refusedFor = async (token: string) => {
      const response = await exchange(url, token);
      return { status: response.status, body: (await response.json()) as { error?: { message: string }; token?: string } };
    };

    const foreign = await provider!.sign({ ...claims, aud: 'other-app' });
    expect(await refusedFor(foreign)).toMatchObject({ status: 401, body: { error: { message: expect.stringMatching(/aud/) } } });
    const expired = await provider!.sign({ ...claims, iat: now - 900, exp: now - 600 });
    expect(await refusedFor(expired)).toMatchObject({ status: 401, body: { error: { message: expect.stringMatching(/exp/) } } });

    const valid = await provider!.sign(claims);
    const first = await refusedFor(valid);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.token).toMatch(/^adt_/);
    expect(await refusedFor(valid)).toMatchObject({ status: 401, body: { error: { message: expect.stringContaining('already used') } } });

    // The same signature over a payload that now says Eve is an admin.
    const [header, payload, signature] = (await provider!.sign({ ...claims, jti: 'forged' })).split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), groups: ['admins'] }),
    ).toString('base64url');
    expect(await refusedFor(`${header}.${forgedPayload}.${signature}`)).toMatchObject({
      status: 401,
      body: { error: { message: expect.stringMatching(/signature/) } },
    });
    expect((await exchange(url, 42)).status).toBe(400);

    // What the session Eve did get acts as Eve, within her roles: she may approve, not administer.
    const admin = await serve.connect();
    try {
      const people = (await admin.call('people.list', {})).people;
      expect(people).toMatchObject([{ name: 'Eve', roles: ['approver'], groups: ['finance'] }]);
      const eve = await connectGateway(serve.info.url, first.body.token!);
      await expect(eve.call('people.me', {})).resolves.toMatchObject({ name: 'Eve', roles: ['approver'] });
      await expect(eve.call('tasks.create', { playbook: { source: TIDY } })).rejects.toMatchObject({ code: 'forbidden' });
      // Removed by an admin, she can sign in no more, and the session she had stops working.
      await admin.call('people.update', { subject: people[0]!.subject, disabled: true });
      const again = await provider!.sign({ ...claims, jti: 'after-removal' });
      expect(await refusedFor(again)).toMatchObject({ status: 403, body: { error: { message: expect.stringContaining('removed') } } });
      await expect(eve.call('people.me', {})).rejects.toMatchObject({ code: 'unavailable' });
      await eve.close().catch(() => undefined);
      await expect(connectGateway(serve.info.url, first.body.token!)).rejects.toMatchObject({ code: 'unauthorized' });
    } finally {
      await admin.close();
    }
    const log = serve.child.stderr;
    expect(log.match(/sign-in refused/g)?.length).toBeGreaterThanOrEqual(5);
    for (const token of [foreign, expired, valid]) expect(log).not.toContain(token);
  }, 120_000);
});
