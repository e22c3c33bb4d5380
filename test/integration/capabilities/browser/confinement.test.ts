import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../support/poll.js';
import { missing } from '../../../support/requirements.js';
import { tempDir, type TestRuntime } from '../../../support/runtime.js';
import { useBrowserRuntime } from './browserHarness.js';
import { PagesServer, stepsTask } from './pagesServer.js';

const skip = missing('chromium');
const browser = useBrowserRuntime();
let pages: PagesServer;
beforeAll(async () => {
  pages = await PagesServer.start();
});
afterAll(() => pages.stop());

function task(h: TestRuntime, steps: string) {
  return stepsTask(h, `  - tool: browser.navigate\n    args: { url: "${pages.url}/form.html" }\n${steps}`);
}
const open = () => browser.open({ policy: { networkAllow: ['127.0.0.1:*'] } });

describe.skipIf(skip)(`browser files stay in the task workspace${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a screenshot path outside the workspace is refused and creates no folder there', async () => {
    const outside = tempDir('agent-desk-outside-');
    for (const shot of [`${outside}/made/by/agent.png`, '../../escape/x.png']) {
      const h = open();
      const t = await task(h, `  - tool: browser.screenshot\n    args: { path: "${shot}" }\n`);
      const done = await h.rt.engine.run(t.id);
      expect(done.state).toBe('failed');
      expect(done.stateReason).toMatch(/outside the task workspace|escapes the task workspace/);
      expect(existsSync(path.join(outside, 'made'))).toBe(false);
      expect(existsSync(path.resolve(done.workspace, '../../escape'))).toBe(false);
    }
  });

  it('a screenshot through a symlinked folder that leads outside is refused', async () => {
    const outside = tempDir('agent-desk-outside-');
    const h = open();
    const t = await task(h, `  - tool: browser.screenshot\n    args: { path: "shots/deeper/page.png" }\n`);
    symlinkSync(outside, path.join(t.workspace, 'shots'));
    const done = await h.rt.engine.run(t.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(/symlink/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a download through a `downloads` symlink that points outside never lands there', async () => {
    const outside = tempDir('agent-desk-outside-');
    const h = open();
    const t = await task(h, `  - tool: browser.click\n    args: { text: Download report }\n  - tool: browser.snapshot\n    args: {}\n`);
    symlinkSync(outside, path.join(t.workspace, 'downloads'));
    const done = await h.rt.engine.run(t.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readdirSync(outside)).toEqual([]);
  });

  it('two downloads of the same name are kept apart', async () => {
    const h = open();
    const t = await task(
      h,
      `  - tool: browser.click\n    args: { text: Download report }\n  - tool: browser.click\n    args: { text: Download report }\n`,
    );
    mkdirSync(path.join(t.workspace, 'downloads'));
    const done = await h.rt.engine.run(t.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const folder = path.join(done.workspace, 'downloads');
    await pollUntil('both downloads', () => (readdirSync(folder).length === 2 ? true : undefined));
    expect(readdirSync(folder).sort()).toEqual(['report (1).csv', 'report.csv']);
  });
});
