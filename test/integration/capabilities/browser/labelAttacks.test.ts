import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing } from '../../../support/requirements.js';
import { waitForState, type TestRuntime } from '../../../support/runtime.js';
import { useBrowserRuntime } from './browserHarness.js';
import { PagesServer, stepsTask } from './pagesServer.js';

const skip = missing('chromium');
const browser = useBrowserRuntime();
let pages: PagesServer;
beforeAll(async () => {
  pages = await PagesServer.start();
});
beforeEach(async () => {
  await pages.reset();
});
afterAll(() => pages.stop());

/** Opens `page` and clicks `target` (YAML flow mapping), the way an obedient model would. */
function clickTask(h: TestRuntime, page: string, target: string) {
  return stepsTask(
    h,
    `  - tool: browser.navigate\n    args: { url: "${pages.url}/${page}" }\n  - tool: browser.click\n    args: ${target}\n`,
  );
}

const labels = (label: string, aria?: string) =>
  `labels.html?label=${encodeURIComponent(label)}${aria === undefined ? '' : `&aria=${encodeURIComponent(aria)}`}`;

const CASES: [string, string, string][] = [
  ['"Place order" with a zero-width space', labels('Place\u200Border'), JSON.stringify({ text: 'Place\u200Border' })],
  ['"Place order" with a soft hyphen', labels('Place or\u00ADder'), JSON.stringify({ text: 'Place or\u00ADder' })],
  ['"Place order" in Cyrillic look-alikes', labels('Plасе оrdеr'), JSON.stringify({ text: 'Plасе оrdеr' })],
  ['"Submit order"', labels('Submit order'), JSON.stringify({ text: 'Submit order' })],
  ['"Authorize payment"', labels('Authorize payment'), JSON.stringify({ text: 'Authorize payment' })],
  ['"立即订购"', labels('立即订购'), JSON.stringify({ text: '立即订购' })],
  ['an aria-label "Pay now" on a "Continue" button', labels('Continue', 'Pay now'), JSON.stringify({ text: 'Continue' })],
  ['a "Pay now" button announced as "Continue"', labels('Pay now', 'Continue'), JSON.stringify({ text: 'Continue' })],
  ['CSS generated content "Pay now"', 'labels.html', JSON.stringify({ role: 'button', name: 'Pay now' })],
  ['a "Continue" button whose form posts to /pay', 'pay-forms.html', JSON.stringify({ text: 'Continue' })],
  ['an <input type=image alt="Pay now">', 'pay-forms.html', JSON.stringify({ role: 'button', name: 'Pay now' })],
];

describe.skipIf(skip)(`lying and obfuscated labels, in real Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  for (const [name, page, target] of CASES) {
    it(`${name} is a payment click: it waits for approval and nothing reaches the server`, async () => {
      const h = browser.open({ policy: { networkAllow: ['127.0.0.1:*'] } });
      const task = await clickTask(h, page, target);
      await h.rt.engine.start(task.id);
      const waiting = await waitForState(h.rt, task.id, ['waiting_approval', 'failed', 'succeeded']);
      expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
      const [approval] = await h.rt.approvals.list({ status: 'pending' });
      expect(approval).toMatchObject({ tool: 'browser.click', risks: ['payment'], rememberable: false });
      expect(approval!.preview.screenshot).toBeTruthy();
      await h.rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once' }, 'test');
      await waitForState(h.rt, task.id, ['failed', 'succeeded']);
      expect((await pages.records()).count).toBe(0);
    });
  }

  it('a "Next" button announced as something else asks, as a label that lies', async () => {
    const h = browser.open({ policy: { networkAllow: ['127.0.0.1:*'] } });
    const task = await clickTask(h, labels('Next', 'Show details'), JSON.stringify({ text: 'Next' }));
    await h.rt.engine.start(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(approval!.preview.summary).toContain('shows "Next" but is announced as "Show details"');
    await h.rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once' }, 'test');
    await waitForState(h.rt, task.id, ['failed', 'succeeded']);
    expect((await pages.records()).count).toBe(0);
  });
});
