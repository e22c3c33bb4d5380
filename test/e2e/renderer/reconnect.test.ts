import { describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { freePort, startServeOn } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);
const NOTE = 'name: after-restart\nsteps:\n  - id: note\n    tool: fs.write\n    args: { path: note.txt, content: hi }\n';

describe.skipIf(skip)(`the UI never strands the user${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('the server restarted under an open page: a banner, then it reconnects by itself; a rotated token applies from #token= without a reload', async () => {
    requireBuiltUi();
    const cli = ui.home();
    const port = await freePort();
    const first = await startServeOn(cli, port);
    const { page, problems } = await openUi(ui.browser, first);
    await page.getByTestId('state-empty').waitFor(WAIT);
    await page.evaluate('window.sameDocument = true');

    await first.child.kill('SIGTERM');
    const banner = page.getByRole('alert').filter({ hasText: 'Connection to the runtime lost' });
    await banner.waitFor(WAIT);
    await shot(page, 'en-23-connection-lost');

    // Restarted on the same port with the same data folder: the token in gateway.json is kept.
    const second = await startServeOn(cli, port);
    expect(second.info.token).toBe(first.info.token);
    await banner.waitFor({ state: 'detached', ...WAIT });
    // Live again, not just quiet: a task created elsewhere appears through the new connection's events.
    const client = await second.connect();
    try {
      await client.call('tasks.create', { playbook: { source: NOTE } });
      await page.getByRole('link', { name: 'after-restart' }).waitFor(WAIT);
    } finally {
      await client.close();
    }

    // Rotated while it is down: the page asks for a token; a new #token= link connects in place.
    await second.child.kill('SIGTERM');
    await banner.waitFor(WAIT);
    const rotated = await cli.run(['tokens', 'rotate', '--json']);
    const { token } = rotated.json() as { token: string };
    expect(token).not.toBe(first.info.token);
    const third = await startServeOn(cli, port);
    expect(third.info.token).toBe(token);
    await page.getByRole('button', { name: 'Connect' }).waitFor(WAIT);
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#token=${encodeURIComponent(token)}`)}`);
    await page.getByRole('link', { name: 'after-restart' }).waitFor(WAIT);
    expect(await page.evaluate<boolean>('window.sameDocument === true')).toBe(true); // no reload
    expect(page.url()).not.toContain('token=');
    // The refused reconnect attempts log WebSocket errors in the console; page errors would be bugs.
    expect(problems.filter((p) => p.startsWith('page error'))).toEqual([]);
    await page.context().close();
  });
});
