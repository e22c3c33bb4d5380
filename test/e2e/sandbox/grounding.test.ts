import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopSession } from '../../../electron/capabilities/gui/desktopSession.js';
import type { ComputerActionResult } from '../../../electron/contract/index.js';
import { ComputerToolInputSchema } from '../../../electron/contract/index.js';
import type { AnyTool, ToolContext } from '../../../electron/runtime/tools/types.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../support/runtime.js';
import { desktopImage, openDesktopRuntime } from '../../support/sandboxImage.js';

// Element targets on a real desktop: the accessibility tree of the desktop's Chromium and of a GTK
// app (yad), Tesseract on a canvas and on an X app with no tree (xmessage), in English and 中文.

const skip = missing('docker');

const PAGE = `<!doctype html><meta charset="utf-8"><title>Grounding</title>
<style>body { font: 22px "Noto Sans CJK SC", sans-serif; margin: 0; } button { font-size: 22px; margin: 12px; padding: 8px 16px; }</style>
<button id="save" onclick="document.title = 'saved'">Save note</button>
<button disabled onclick="document.title = 'bought'">Buy now</button>
<div><button onclick="document.title = 'deleted 1'">Delete</button><button onclick="document.title = 'deleted 2'">Delete</button></div>
<div style="margin: 12px" onclick="const n = ++window.loads; setTimeout(() => { this.textContent = 'Loaded ' + n }, 700)">Load later</div>
<script>window.loads = 0;</script>
<canvas id="c" width="640" height="180"></canvas>
<script>
  const c = document.getElementById('c');
  const g = c.getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, 640, 180); g.fillStyle = '#000';
  g.font = '34px "Noto Sans CJK SC", sans-serif';
  g.fillText('Export report', 20, 50);
  g.fillText('保存草稿', 20, 140);
  c.onclick = (e) => { document.title = 'canvas ' + e.offsetX + ',' + e.offsetY; };
</script>`;

describe.skipIf(skip)('element targets on a real desktop', () => {
  let h: TestRuntime;
  let computer: AnyTool;
  let session: DesktopSession;
  const workspace = '/tmp/agent-desk-grounding-ws';

  const ctx = (): ToolContext => ({
    taskId: 'grounding',
    stepId: 's',
    idempotencyKey: 'k',
    workspace,
    signal: new AbortController().signal,
  });
  const act = async (args: unknown): Promise<ComputerActionResult> =>
    (await computer.execute(ComputerToolInputSchema.parse(args), ctx())) as ComputerActionResult;
  const failure = (args: unknown): Promise<{ code: string; message: string; candidates?: string[] }> =>
    act(args).then(
      (r) => {
        throw new Error(`expected a failure, got ${JSON.stringify({ ...r, screenshot: undefined })}`);
      },
      (e: { code: string; message: string; candidates?: string[] }) => e,
    );
  const title = async (): Promise<string> => (await session.sandbox.call('browser.state', {})).title ?? '';

  beforeAll(async () => {
    const opened = openDesktopRuntime(await desktopImage());
    h = opened.h;
    computer = h.rt.registry.get('computer')!;
    session = await opened.parts.desktops.forWorkspace(workspace, 'grounding');
    await session.sandbox.call('files.write', { path: 'grounding.html', data: PAGE });
    await session.sandbox.call('browser.open', { url: 'file:///home/agent/grounding.html' });
  }, 600_000);

  afterAll(async () => {
    await h?.cleanup();
  });

  // The second click on the same text changes no focus: its only effect is the text the page shows 0.7 s later.
  it('a click whose effect shows only after the screen was still is waited for, not no_effect', async () => {
    await act({ action: 'click', target: { text: 'Load later' } });
    const shows = async (text: string) => JSON.stringify(await session.sandbox.call('a11y.tree', { values: false })).includes(text);
    await pollUntil('the first load shown', async () => (await shows('Loaded 1')) || undefined, { timeoutMs: 10_000 });
    const result = await act({ action: 'click', target: { text: 'Loaded 1' } });
    expect(result.changed).not.toContain('focus');
    expect(result.changed!.length).toBeGreaterThan(0);
    expect(await shows('Loaded 2')).toBe(true);
  }, 120_000);

  it('finds a button by role and name in the accessibility tree, with the box the page has, and the click lands', async () => {
    const dom = (await session.sandbox.call('browser.targets', {})).targets.find((t) => t.id === 'save')!;
    const result = await act({ action: 'click', target: { role: 'button', name: 'Save note' } });
    expect(result.target).toMatchObject({ resolver: 'accessibility', role: 'button', name: 'Save note', app: 'Chromium' });
    const box = result.target!.box;
    expect(Math.abs(box.x - dom.rect.x)).toBeLessThanOrEqual(2);
    expect(Math.abs(box.y - dom.rect.y)).toBeLessThanOrEqual(2);
    expect(Math.abs(box.width - dom.rect.width)).toBeLessThanOrEqual(2);
    expect(result.changed!.length).toBeGreaterThan(0);
    expect(await title()).toBe('saved');
  }, 120_000);

  it('reads English text on a canvas (no tree object has it) with OCR and clicks inside it', async () => {
    const result = await act({ action: 'click', target: { text: 'Export report' } });
    expect(result.target).toMatchObject({ resolver: 'ocr', text: 'Export report' });
    const [, x, y] = /^canvas (\d+),(\d+)$/.exec(await title())!.map(Number);
    expect(x).toBeGreaterThan(20);
    expect(x).toBeLessThan(250);
    expect(y).toBeGreaterThan(20);
    expect(y).toBeLessThan(55);
  }, 120_000);

  it('reads 中文 with OCR: 保存 inside 保存草稿 is clicked on its own two characters', async () => {
    const result = await act({ action: 'click', target: { text: '保存' } });
    expect(result.target).toMatchObject({ resolver: 'ocr', text: '保存' });
    const [, x, y] = /^canvas (\d+),(\d+)$/.exec(await title())!.map(Number);
    expect(x).toBeGreaterThan(18);
    expect(x).toBeLessThan(92);
    expect(y).toBeGreaterThan(100);
    expect(y).toBeLessThan(145);
  }, 120_000);

  it('two identical buttons: an ambiguity error naming both, and nothing clicked', async () => {
    const before = await title();
    const error = await failure({ action: 'click', target: { role: 'button', name: 'Delete' } });
    expect(error.code).toBe('target_ambiguous');
    expect(error.candidates).toHaveLength(2);
    expect(error.message).toMatch(
      /2 elements are button "Delete": button "Delete" \(Chromium\) at \(\d+, \d+\).*; button "Delete" \(Chromium\) at/,
    );
    expect(await title()).toBe(before);
  }, 120_000);

  it('a coordinate inside one of the two chooses it', async () => {
    const tree = await session.sandbox.call('a11y.tree', { values: false });
    const second = tree.nodes.filter((n) => n.role === 'button' && n.name === 'Delete').sort((a, b) => b.bounds.x - a.bounds.x)[0]!.bounds;
    const at = session.space.toModel({ x: Math.round(second.x + second.width / 2), y: Math.round(second.y + second.height / 2) });
    const result = await act({ action: 'click', target: { role: 'button', name: 'Delete' }, x: at.x, y: at.y });
    expect(result.target?.resolver).toBe('accessibility');
    expect(await title()).toBe('deleted 2');
  }, 120_000);

  it('a name no element has: a miss naming what the screen shows', async () => {
    const error = await failure({ action: 'click', target: { role: 'button', name: 'Save' } });
    expect(error.code).toBe('target_missed');
    expect(error.message).toMatch(/button "Save note" \(Chromium\)/);
  }, 120_000);

  it('a click on a disabled button is no_effect, not a success', async () => {
    const error = await failure({ action: 'click', target: { role: 'button', name: 'Buy now' } });
    expect(error.code).toBe('no_effect');
    expect(error.message).toMatch(/button "Buy now" changed nothing.*disabled/);
    expect(await title()).not.toBe('bought');
  }, 120_000);

  // Chromium's accessibility cache holds only the first page it showed: a page navigated to is found by walking live children.
  it('a page opened after the first, and one reached through its link, are found in the tree', async () => {
    const next = '<!doctype html><title>Next</title><p><a href="last.html" style="font-size: 30px">Open the last page</a></p>';
    await session.sandbox.call('files.write', { path: 'next.html', data: next });
    await session.sandbox.call('files.write', {
      path: 'last.html',
      data: '<!doctype html><title>Last</title><button onclick="document.title = \'archived\'">Archive</button>',
    });
    await session.sandbox.call('browser.open', { url: 'file:///home/agent/next.html' });
    const link = await act({ action: 'click', target: { role: 'link', name: 'Open the last page' } });
    expect(link.target).toMatchObject({ resolver: 'accessibility', role: 'link' });
    await pollUntil('the last page', async () => ((await title()) === 'Last' ? true : undefined), { timeoutMs: 10_000 });
    const button = await act({ action: 'click', target: { role: 'button', name: 'Archive' } });
    expect(button.target).toMatchObject({ resolver: 'accessibility', role: 'button', name: 'Archive', app: 'Chromium' });
    expect(await title()).toBe('archived');
  }, 120_000);

  it('finds a GTK button (yad) by role and name; the click closes its window', async () => {
    await session.sandbox.call('browser.close', {});
    await session.sandbox.call('exec.run', {
      command: ['sh', '-c', 'yad --title=Notes --text="A note" --button="Save note:0" --button="Cancel:1" >/dev/null 2>&1 &'],
    });
    await pollUntil(
      'yad on the accessibility bus',
      async () =>
        (await session.sandbox.call('a11y.tree', { values: false })).nodes.some((n) => n.app === 'yad' && n.role === 'button') || undefined,
      { timeoutMs: 30_000 },
    );
    const result = await act({ action: 'click', target: { role: 'button', name: 'Save note' } });
    expect(result.target).toMatchObject({ resolver: 'accessibility', app: 'yad', role: 'button', name: 'Save note' });
    expect(result.changed).toContain('screen');
    await pollUntil(
      'yad gone',
      async () => !(await session.sandbox.call('a11y.tree', { values: false })).nodes.some((n) => n.app === 'yad') || undefined,
      { timeoutMs: 30_000 },
    );
  }, 120_000);
});

describe.skipIf(skip)('a desktop approval names the element', () => {
  let h: TestRuntime;
  afterAll(async () => {
    await h?.cleanup();
  });

  it("a click on button 'Place order' waits for approval naming it, then clicks the element found again", async () => {
    h = openDesktopRuntime(await desktopImage()).h;
    const task = await createPlaybookTask(
      h.rt,
      `name: order by name
steps:
  - tool: sandbox.write_file
    args:
      path: order.html
      content: |
        <!doctype html><meta charset="utf-8"><title>Cart</title>
        <button style="font-size: 30px; margin: 40px" onclick="document.title = 'ordered'">Place order</button>
  - tool: sandbox.browser_open
    args: { url: "file:///home/agent/order.html" }
  - tool: computer
    args: { action: click, target: { role: button, name: "Place order" } }
`,
    );
    const run = h.rt.engine.run(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval'], 180_000);
    const [approval] = await h.rt.approvals.list({ taskId: task.id, status: 'pending' });
    expect(approval).toMatchObject({ tool: 'computer', risks: ['payment'] });
    expect(approval!.preview.summary).toMatch(/^click button 'Place order'/);
    expect(
      Buffer.from(approval!.preview.screenshot ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    expect((await run).state).toBe('succeeded');
    const click = (await h.rt.engine.steps(task.id)).find((s) => s.tool === 'computer')!;
    expect(click.output).toMatchObject({ target: { resolver: 'accessibility', role: 'button', name: 'Place order' } });
  }, 240_000);
});
