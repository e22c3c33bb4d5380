import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { desktopModule } from '../../../electron/capabilities/gui/desktopModule.js';
import type { DesktopSession } from '../../../electron/capabilities/gui/desktopSession.js';
import type { ComputerActionResult } from '../../../electron/contract/index.js';
import { ComputerToolInputSchema } from '../../../electron/contract/index.js';
import { modelBox } from '../../../electron/runtime/gui/screenMarks.js';
import { withLlmGoals } from '../../../electron/runtime/planning/llm/goalPlans.js';
import type { AnyTool, ToolContext } from '../../../electron/runtime/tools/types.js';
import { chatProvider, TEST_PRICES } from '../../support/llmRuntime.js';
import { ModelServer, type ReceivedRequest } from '../../support/modelServer.js';
import { missing } from '../../support/requirements.js';
import { openTestRuntime, type TestRuntime } from '../../support/runtime.js';
import { desktopImage, openDesktopRuntime } from '../../support/sandboxImage.js';

// Marked screenshots on a real desktop: numbered boxes from the desktop's accessibility tree and
// OCR, a legend of them, and clicks on a number that find the element again on the screen as it
// is now. The tests (and the scripted model) read the numbers from the legend they were sent.

const skip = missing('docker');

const PAGE = `<!doctype html><meta charset="utf-8"><title>Marks</title>
<style>
  body { font: 22px "Noto Sans CJK SC", sans-serif; margin: 0; }
  button { font-size: 22px; margin: 12px; padding: 8px 16px; }
  #archive { position: absolute; left: 40px; top: 320px; }
  body.shifted #archive { left: 640px; top: 480px; }
</style>
<button onclick="save()">Save note</button>
<button onclick="document.body.classList.add('shifted'); document.getElementById('banner').remove()">Shift layout</button>
<button id="banner" onclick="document.title = 'banner'">Old banner</button>
<button onclick="document.title = 'ordered'">Place order</button>
<button id="archive" onclick="document.title = 'archived'">Archive</button>
<canvas id="c" width="320" height="90" style="position: absolute; left: 700px; top: 260px"></canvas>
<script>
  const g = document.getElementById('c').getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, 320, 90); g.fillStyle = '#000';
  g.font = '34px "Noto Sans CJK SC", sans-serif';
  g.fillText('导出报告', 20, 55);
  document.getElementById('c').onclick = () => { document.title = 'exported'; };
  function save() {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob(['note saved'], { type: 'text/plain' }));
    a.download = 'note.txt';
    a.click();
    document.title = 'saved';
  }
</script>`;

/** The number the legend gives an element: `7: button 'Save note' at (412, 230)` (the tree's role name may be "push button"). */
function markNumber(legend: string, name: string): number | undefined {
  const line = legend.split('\n').find((l) => new RegExp(`^\\d+: [a-z ]*button '${name}' at \\(\\d+, \\d+\\)$`).test(l));
  return line === undefined ? undefined : Number(line.split(':')[0]);
}

describe.skipIf(skip)('marked screenshots on a real desktop', () => {
  let h: TestRuntime;
  let computer: AnyTool;
  let session: DesktopSession;
  let marked: ComputerActionResult;
  const workspace = '/tmp/agent-desk-marks-ws';
  const ctx = (): ToolContext => ({ taskId: 'marks', stepId: 's', idempotencyKey: 'k', workspace, signal: new AbortController().signal });
  const act = async (args: unknown): Promise<ComputerActionResult> =>
    (await computer.execute(ComputerToolInputSchema.parse(args), ctx())) as ComputerActionResult;
  const failure = (args: unknown): Promise<{ code: string; message: string }> =>
    act(args).then(
      (r) => {
        throw new Error(`expected a failure, got ${JSON.stringify({ ...r, screenshot: undefined })}`);
      },
      (e: { code: string; message: string }) => e,
    );
  const title = async (): Promise<string> => (await session.sandbox.call('browser.state', {})).title ?? '';
  const mark = (name: string): number => {
    const n = markNumber(marked.legend ?? '', name);
    if (n === undefined) throw new Error(`no mark for ${name} in the legend:\n${marked.legend}`);
    return n;
  };

  beforeAll(async () => {
    const opened = openDesktopRuntime(await desktopImage());
    h = opened.h;
    computer = h.rt.registry.get('computer')!;
    session = await opened.parts.desktops.forWorkspace(workspace, 'marks');
    await session.sandbox.call('files.write', { path: 'marks.html', data: PAGE });
    await session.sandbox.call('browser.open', { url: 'file:///home/agent/marks.html' });
    marked = await act({ action: 'screenshot', marks: true });
  }, 600_000);

  afterAll(async () => {
    await h?.cleanup();
  });

  it('numbers the page’s buttons in a legend and draws each box on the image the model sees, in model space', async () => {
    expect(marked.legend).toMatch(/^Marks 1–\d+ on this screenshot; click one with \{"action":"click","mark":N\}:/);
    for (const name of ['Save note', 'Shift layout', 'Old banner', 'Place order', 'Archive']) expect(mark(name)).toBeGreaterThan(0);
    expect({ width: marked.screenshot!.width, height: marked.screenshot!.height }).toEqual(session.space.model);
    // The legend's point for each mark, converted back as a click's x/y would be, lies inside the element.
    for (const m of session.marks!) {
      const [, x, y] = new RegExp(`^${m.n}: .* at \\((\\d+), (\\d+)\\)$`, 'm').exec(marked.legend!)!.map(Number);
      const p = session.space.toScreen({ x: x!, y: y! });
      expect(p.x >= m.box.x && p.x < m.box.x + m.box.width && p.y >= m.box.y && p.y < m.box.y + m.box.height, marked.legend).toBe(true);
    }
    // The outline of "Save note" is drawn where the element is: its left edge differs from the plain screenshot there.
    const plain = await act({ action: 'screenshot' });
    const save = session.marks!.find((m) => m.n === mark('Save note'))!;
    const edge = modelBox(save.box, session.space);
    const pixel = async (png: string) => {
      const { data, info } = await sharp(Buffer.from(png, 'base64')).raw().toBuffer({ resolveWithObject: true });
      const at = ((edge.y + Math.floor(edge.height / 2)) * info.width + edge.x) * info.channels;
      return [...data.subarray(at, at + 3)];
    };
    expect(await pixel(marked.screenshot!.data)).not.toEqual(await pixel(plain.screenshot!.data));
  }, 120_000);

  it('a number no mark has is a tool error naming the valid range, and nothing is clicked', async () => {
    const before = await title();
    const error = await failure({ action: 'click', mark: 999 });
    expect(error.code).toBe('invalid_input');
    expect(error.message).toMatch(new RegExp(`there is no mark 999: the last marked screenshot has marks 1–${session.marks!.length}`));
    expect(await title()).toBe(before);
  }, 120_000);

  // The attack: a model that cannot name "Place order" without the gate asking tries its number instead.
  it("a click on the mark of 'Place order' is classified by the element's words: a payment that asks first", () => {
    const n = mark('Place order');
    const classified = computer.classify!(ComputerToolInputSchema.parse({ action: 'click', mark: n }), ctx());
    expect(classified.risks).toEqual(['payment']);
    expect(classified.preview.summary).toMatch(
      new RegExp(`^click mark ${n}: [a-z ]*button 'Place order' — "Place order" looks like a payment`),
    );
  });

  it('text only OCR reads (中文 on a canvas, no tree object) gets a mark too, and a click on it lands there', async () => {
    const line = marked.legend!.split('\n').find((l) => /^\d+: text '.*导出报告.*' at /.test(l));
    expect(line, marked.legend).toBeDefined();
    const result = await act({ action: 'click', mark: Number(line!.split(':')[0]) });
    expect(result.target?.resolver).toBe('ocr');
    expect(await title()).toBe('exported');
  }, 120_000);

  it('a mark whose element moved after the screenshot is clicked where the element is now; one that vanished is target_missed', async () => {
    const archive = session.marks!.find((m) => m.n === mark('Archive'))!;
    await act({ action: 'click', target: { role: 'button', name: 'Shift layout' } });
    const moved = await act({ action: 'click', mark: archive.n });
    expect(await title()).toBe('archived');
    expect(moved.target).toMatchObject({ resolver: 'accessibility', name: 'Archive' });
    expect(moved.target!.box.x - archive.box.x).toBeGreaterThan(300);

    const gone = await failure({ action: 'click', mark: mark('Old banner') });
    expect(gone.code).toBe('target_missed');
    expect(gone.message).toMatch(
      /^mark \d+: [a-z ]*button 'Old banner' is not on the screen as it was marked: no element on the screen is/,
    );
    expect(await title()).toBe('archived');
  }, 120_000);
});

describe.skipIf(skip)('a scripted model clicks a number it read in the legend', () => {
  let server: ModelServer;
  let h: TestRuntime;
  let image: string;
  beforeAll(async () => void (image = await desktopImage()), 600_000);
  beforeEach(async () => {
    server = await new ModelServer().start();
    const provider = chatProvider(server.url);
    h = openTestRuntime({
      modules: (core) => [
        desktopModule(core, { image }),
        {
          name: 'scripted model',
          plans: withLlmGoals({
            registry: core.registry,
            provider: () => provider,
            acceptance: () => [
              { type: 'file_contains', name: 'note saved', path: 'Downloads/note.txt', text: 'note saved', sandbox: true },
            ],
            prices: TEST_PRICES,
          }),
        },
      ],
    });
  });
  afterEach(async () => {
    await h?.cleanup();
    await server?.close();
  });

  /** The legend in the last tool answer the model was sent (tool output is JSON text). */
  const lastLegend = (request: ReceivedRequest): string => {
    const messages = request.body.messages as { role: string; content?: unknown }[];
    const answer = messages.filter((m) => m.role === 'tool').at(-1)?.content;
    const text = typeof answer === 'string' ? answer : JSON.stringify(answer ?? '');
    const start = text.indexOf('{');
    return start < 0 ? '' : String((JSON.parse(text.slice(start)) as { legend?: unknown }).legend ?? '');
  };

  it('asks for a marked screenshot, finds "Save note" in the legend, clicks its number, and the saved note proves it landed', async () => {
    let seen = '';
    server.script(
      'chat',
      { toolCalls: [{ name: 'sandbox_write_file', arguments: { path: 'marks.html', content: PAGE } }] },
      { toolCalls: [{ name: 'sandbox_browser_open', arguments: { url: 'file:///home/agent/marks.html' } }] },
      { toolCalls: [{ name: 'computer', arguments: { action: 'screenshot', marks: true } }] },
      (request) => {
        seen = lastLegend(request);
        const n = markNumber(seen, 'Save note');
        return n === undefined
          ? { text: 'I cannot find Save note.' }
          : { toolCalls: [{ name: 'computer', arguments: { action: 'click', mark: n } }] };
      },
      { text: 'Saved the note.' },
    );
    const goal = 'Open the notes page in the desktop and save the note.';
    const task = await h.rt.engine.create({ title: goal, plan: { kind: 'goal', goal }, inputs: {}, sandbox: 'desktop' });
    const done = await h.rt.engine.run(task.id);
    expect(server.scriptErrors).toEqual([]);
    expect(seen).toMatch(/button 'Save note'/);
    expect(done.state, done.stateReason).toBe('succeeded');
    const click = (await h.rt.engine.steps(task.id)).find(
      (s) => s.tool === 'computer' && (s.args as { mark?: number }).mark !== undefined,
    )!;
    expect(click.output).toMatchObject({ target: { resolver: 'accessibility', name: 'Save note' } });
    expect((click.output as ComputerActionResult).changed!.length).toBeGreaterThan(0);
  }, 300_000);
});

describe.skipIf(skip)('sandbox.marks: every screenshot a model asks for is marked', () => {
  let h: TestRuntime | undefined;
  afterAll(async () => {
    await h?.cleanup();
  });

  it('a plain screenshot comes back marked, with its legend, when the config asks for marks', async () => {
    const image = await desktopImage();
    let desktops: ReturnType<typeof desktopModule> | undefined;
    h = openTestRuntime({ config: { sandbox: { marks: true } }, modules: (core) => [(desktops = desktopModule(core, { image }))] });
    const session = await desktops!.desktops.forWorkspace('/tmp/agent-desk-marks-config-ws', 'marks-config');
    await session.sandbox.call('files.write', { path: 'marks.html', data: PAGE });
    await session.sandbox.call('browser.open', { url: 'file:///home/agent/marks.html' });
    const ctx: ToolContext = {
      taskId: 'marks-config',
      stepId: 's',
      idempotencyKey: 'k',
      workspace: '/tmp/agent-desk-marks-config-ws',
      signal: new AbortController().signal,
    };
    const computer = h.rt.registry.get('computer')!;
    const result = (await computer.execute(ComputerToolInputSchema.parse({ action: 'screenshot' }), ctx)) as ComputerActionResult;
    expect(markNumber(result.legend ?? '', 'Save note'), result.legend).toBeGreaterThan(0);
  }, 300_000);
});
