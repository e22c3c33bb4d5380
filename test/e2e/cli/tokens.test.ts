import { afterEach, describe, expect, it } from 'vitest';
import { connectGateway, type GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import type { GatewayToken } from '../../../electron/contract/index.js';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';

const noPostgres = missing('postgres');

let cli: CliSandbox | undefined;
let database: TestDatabase | undefined;
const clients: GatewayClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await cli?.cleanup();
  cli = undefined;
  await database?.drop();
  database = undefined;
});

describe('agent-desk tokens', () => {
  it('creates an approvals-only token for a phone that agent-desk serve honours, lists it without its secret, and revokes it', async () => {
    cli = new CliSandbox();
    const created = await cli.run(['tokens', 'create', '--scopes', 'operator.approvals', '--name', 'phone', '--json']);
    expect(created.code, explain(created)).toBe(0);
    const { token, secret } = created.json<{ token: GatewayToken; secret: string }>();
    expect(token).toMatchObject({ name: 'phone', scopes: ['operator.approvals'] });
    expect(secret).toMatch(/^adt_/);

    const serve = await startServe(cli);
    const phone = await connectGateway(serve.info.url, secret);
    clients.push(phone);
    await expect(phone.call('approvals.list', {})).resolves.toEqual({ approvals: [] });
    await expect(phone.call('tasks.list', {})).rejects.toMatchObject({ code: 'forbidden' });

    const listed = await cli.run(['tokens', 'list', '--json']);
    expect(listed.stdout).not.toContain(secret);
    expect(listed.json<{ tokens: GatewayToken[] }>().tokens.map((t) => t.id)).toEqual([token.id]);

    const revoked = await cli.run(['tokens', 'revoke', token.id]);
    expect(revoked.stdout, explain(revoked)).toBe(`revoked ${token.id} (phone)\n`);
    await expect(phone.call('approvals.list', {})).rejects.toMatchObject({ code: 'unavailable' });
    await expect(connectGateway(serve.info.url, secret)).rejects.toMatchObject({ code: 'unauthorized' });

    const bad = await cli.run(['tokens', 'create', '--scopes', 'operator.everything', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({ error: { code: 'invalid_params', message: expect.stringContaining('unknown scope') } });
  });

  it.skipIf(noPostgres)(
    'revoke reaches the running serve: a phone token used a moment ago is refused at once, though this shell opens another store',
    async () => {
      cli = new CliSandbox();
      database = await createTestDatabase();
      // serve's shell names a PostgreSQL store; the shell that revokes does not (its own SQLite file).
      const serve = await startServe(cli, 30_000, ['--no-worker'], { AGENT_DESK_DATABASE_URL: database.url });
      const admin = await serve.connect();
      clients.push(admin);
      const { token, secret } = await admin.call('tokens.create', { scopes: ['operator.approvals'], name: 'phone' });
      const phone = await connectGateway(serve.info.url, secret);
      clients.push(phone);
      await expect(phone.call('approvals.list', {})).resolves.toEqual({ approvals: [] });

      const revoked = await cli.run(['tokens', 'revoke', token.id]);
      expect(revoked.stdout, explain(revoked)).toBe(`revoked ${token.id} (phone)\n`);
      await expect(phone.call('approvals.list', {})).rejects.toMatchObject({ code: 'unavailable' });
      await expect(connectGateway(serve.info.url, secret)).rejects.toMatchObject({ code: 'unauthorized' });
      const listed = await admin.call('tokens.list', { includeRevoked: true });
      expect(listed.tokens).toEqual([expect.objectContaining({ id: token.id, revokedAt: expect.any(String) })]);

      // With no serve running, a miss says which store it looked in.
      await serve.child.kill('SIGTERM');
      const gone = await cli.run(['tokens', 'revoke', 'tok_000000000000', '--json']);
      expect(gone.code).toBe(2);
      expect(gone.json()).toMatchObject({ error: { code: 'not_found', message: expect.stringContaining(`in ${cli.home}`) } });
    },
  );
});
