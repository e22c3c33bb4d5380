import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../../electron/capabilities/secrets/fileSecretStore.js';
import { CliSandbox, explain } from '../../../support/cliSandbox.js';
import { missing } from '../../../support/requirements.js';
import { launchChromium } from '../../renderer/uiSession.js';
import { IDP_CLIENT_ID, MCP_CLIENT_ID, MCP_CLIENT_SECRET, startCrossAppIdp, startCrossAppMcp } from './crossAppAuthorities.js';

const skip = missing('chromium');

let browser: Browser | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  if (!skip) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function filesHolding(dir: string, value: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((entry) => {
    const file = path.join(dir, entry);
    return statSync(file).isFile() && readFileSync(file).toString('latin1').includes(value);
  });
}

describe.skipIf(skip)(`agent-desk mcp login with cross-app access${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it("signs the person in at the IdP (loopback + PKCE), trades their ID token for an ID-JAG and the ID-JAG for the MCP server's token; a task then calls the server as that person", async () => {
    const idp = await startCrossAppIdp();
    cleanups.push(() => idp.close());
    const mcp = await startCrossAppMcp(idp);
    cleanups.push(() => mcp.close());
    const cli = new CliSandbox();
    cleanups.push(() => cli.cleanup());
    new FileSecretStore(cli.home).set('docs-client-secret', MCP_CLIENT_SECRET);
    const oauth = {
      grant: 'cross_app_access',
      clientId: MCP_CLIENT_ID,
      clientSecretSecret: 'docs-client-secret',
      identityProvider: { issuer: idp.issuer, clientId: IDP_CLIENT_ID },
    };
    writeFileSync(path.join(cli.home, 'mcp.json'), JSON.stringify({ servers: { docs: { transport: 'http', url: mcp.url, oauth } } }));

    const child = cli.spawn(['mcp', 'login', 'docs', '--json']);
    const [, address] = await child.waitForOutput(/with your organisation, open this address:\s+(\S+)/);
    const page = await (await browser!.newContext()).newPage();
    await page.goto(address!);
    await page.locator('input[name="login"]').fill('alice');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Signed in. You can close this tab').waitFor({ timeout: 30_000 });
    await page.context().close();
    const done = await child.finished(60_000);
    expect(done.code, child.describe()).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ name: 'docs', state: 'connected', tools: [{ name: 'mcp__docs__whoami' }] });
    expect({ exchanges: idp.exchanges, grants: mcp.grants }).toEqual({ exchanges: 1, grants: 1 });

    const playbook = path.join(cli.home, 'whoami.yaml');
    writeFileSync(
      playbook,
      `name: ask docs\nsteps:\n  - tool: mcp__docs__whoami\n    args: {}\n    expect: [{ path: $.text, contains: "called for alice" }]\n`,
    );
    const run = await cli.run(['run', playbook, '--json']);
    expect(run.code, explain(run)).toBe(0);
    // The task used the stored token: no new sign-in, exchange or grant.
    expect({ exchanges: idp.exchanges, grants: mcp.grants }).toEqual({ exchanges: 1, grants: 1 });
    // Nothing the IdP signed (ID token, ID-JAG) is kept anywhere under the data folder or printed.
    expect(idp.seen).toHaveLength(2);
    const signatures = idp.seen.map((jwt) => jwt.split('.')[2]!);
    expect(signatures.flatMap((sig) => filesHolding(cli.home, sig))).toEqual([]);
    for (const sig of signatures) expect(done.stdout + done.stderr + run.stdout + run.stderr).not.toContain(sig);
  }, 120_000);
});
