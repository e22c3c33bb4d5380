import { afterEach, describe, expect, it } from 'vitest';
import { connectGateway, type GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import type { GatewayToken } from '../../../electron/contract/index.js';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { startServe } from '../../support/serveProcess.js';

let cli: CliSandbox | undefined;
const clients: GatewayClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await cli?.cleanup();
  cli = undefined;
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
});
