import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { requireBuiltUi, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);
const TIDY = 'name: tidy-log\nsteps:\n  - id: remove\n    tool: fs.delete\n    args: { path: old.log }\n';

/**
 * Chromium's real Notification API, watched: every notification the page makes (and closes) is
 * noted on `window.__notes`; the page is told the user is elsewhere (another window has focus).
 */
const WATCH_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  window.__notes = [];
  class Watched extends Real {
    constructor(title, options) {
      super(title, options);
      const note = { title, body: options?.body, closed: false, click: () => this.onclick?.() };
      window.__notes.push(note);
      const close = this.close.bind(this);
      this.close = () => { note.closed = true; close(); };
    }
  }
  window.Notification = Watched;
  document.hasFocus = () => false;
})()`;

interface Note {
  title: string;
  body: string;
  closed: boolean;
}

describe.skipIf(skip)(`browser notifications while approvals wait${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('an approval raised while the user is away notifies once; a click opens it; deciding closes it', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const origin = serve.info.httpUrl;
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.grantPermissions(['notifications'], { origin });
    await context.addInitScript(WATCH_NOTIFICATIONS);
    const page = await context.newPage();
    const client = await serve.connect();
    try {
      await page.goto(`${origin}/#token=${encodeURIComponent(serve.info.token)}`);
      await page.waitForSelector('[data-testid="state-empty"]', WAIT);
      expect(await page.evaluate<string>('Notification.permission')).toBe('granted');
      const task = await client.call('tasks.create', { title: 'Tidy the logs', playbook: { source: TIDY } });

      await pollUntil('a notification', () => page.evaluate<boolean>('window.__notes.length > 0').then((ok) => ok || undefined));
      const [note] = await page.evaluate<Note[]>('window.__notes.map(({ title, body, closed }) => ({ title, body, closed }))');
      expect(note).toMatchObject({ title: 'Approval needed: fs.delete', closed: false });
      expect(note!.body).toContain('Tidy the logs');

      await page.evaluate('window.__notes[0].click()');
      await page.getByRole('dialog').waitFor(WAIT);
      const { approvals } = await client.call('approvals.list', { status: 'pending' });
      expect(approvals.map((a) => a.taskId)).toEqual([task.id]);
      await client.call('approvals.decide', { approvalId: approvals[0]!.id, decision: 'deny' });
      await pollUntil('the notification closed', () => page.evaluate<boolean>('window.__notes[0].closed').then((ok) => ok || undefined));
      expect(await page.evaluate<number>('window.__notes.length')).toBe(1);
    } finally {
      await client.close();
      await context.close();
    }
  });
});
