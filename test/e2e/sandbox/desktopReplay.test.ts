import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopModule } from '../../../electron/capabilities/gui/desktopModule.js';
import { desktopModule } from '../../../electron/capabilities/gui/desktopModule.js';
import { FileSecretStore } from '../../../electron/capabilities/secrets/fileSecretStore.js';
import { saveHealed } from '../../../electron/cli/commands/runRecord.js';
import type { AcceptanceCheck, Playbook, Task } from '../../../electron/contract/index.js';
import { parsePlaybook } from '../../../electron/runtime/planning/playbook/parse.js';
import { ModelServer, type ReceivedRequest } from '../../support/modelServer.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { openTestRuntime, tempDir, type TestRuntime } from '../../support/runtime.js';
import { desktopImage } from '../../support/sandboxImage.js';
import { findColour, latestImage, type Rgb } from '../../support/screenModel.js';
import { useHeavySlot } from '../../support/heavySlot.js';

useHeavySlot();

// A desktop task recorded at 1280×800 replays on a 1920×1080 desktop, in a window moved and
// resized, in the page's dark theme, with no model call: each recorded click finds its element
// (recorded beside its coordinate) on the screen it meets. With the button's label changed, the
// replay asks the model once, heals the step, and the saved playbook holds the healed step.
// The scripted model finds the button by its colour in the screenshot it is sent, and the
// healing model finds the new label in the candidates its prompt names.

const skip = missing('docker');
const GREEN: Rgb = [20, 170, 60];
const page = (o: { label: string; dark: boolean }): string => `<!doctype html><meta charset="utf-8"><title>Notes</title>
<style>
  body { margin: 0; font: 24px sans-serif; background: ${o.dark ? '#15171a' : '#fff'}; color: ${o.dark ? '#e8e8e8' : '#111'}; }
  p { margin: 24px; }
  button { margin: 24px; font-size: 28px; padding: 14px 40px; border: 0; color: #fff; background: ${o.dark ? '#3a3f47' : `rgb(${GREEN})`}; }
</style>
<p>A note to keep.</p>
<button onclick="save()">${o.label}</button>
<script>
  function save() {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob(['saved'], { type: 'text/plain' }));
    a.download = 'note.txt';
    a.click();
    document.title = 'Saved';
  }
</script>`;
const CHECK: AcceptanceCheck = { type: 'file_contains', name: 'note saved', path: 'Downloads/note.txt', text: 'saved', sandbox: true };
const GOAL = 'Save the note on the page the desktop shows.';
/** A desktop's screen as config.json gives it: points, and device pixels per point. */
type Screen = { width: number; height: number; scale?: number };
const WXGA: Screen = { width: 1280, height: 800 };
const FULL_HD: Screen = { width: 1920, height: 1080 };

let server: ModelServer;
let image: string;
const opened: TestRuntime[] = [];

beforeAll(async () => {
  if (skip) return;
  server = await new ModelServer().start();
  image = await desktopImage();
}, 600_000);
afterEach(async () => {
  for (const h of opened.splice(0)) await h.cleanup();
});
afterAll(async () => server?.close());

/** The product's composition on a desktop of this size, its models at the scripted server. */
function openProduct(screen: Screen): { h: TestRuntime; parts: DesktopModule } {
  const home = tempDir('agent-desk-replay-desktop-');
  const secrets = new FileSecretStore(home);
  secrets.set('local-key', 'sk-replay-test');
  let parts: DesktopModule | undefined;
  const h = openTestRuntime({
    home,
    secrets,
    config: {
      models: {
        providers: { local: { kind: 'openai-chat', baseUrl: server.url, apiKeySecret: 'local-key' } },
        defaultModel: 'local:gpt-test',
      },
      sandbox: { image, screen },
    },
    modules: (core) => [(parts = desktopModule(core, { image }))],
  });
  opened.push(h);
  return { h, parts: parts! };
}

/** Shows the page in the task's desktop before it runs; `window` restores Chromium from maximized and moves it. */
async function showPage(
  parts: DesktopModule,
  task: Task,
  shows: { label: string; dark: boolean },
  window?: { x: number; y: number; width: number; height: number },
): Promise<void> {
  const { label } = shows;
  const desktop = await parts.desktops.forWorkspace(task.workspace, task.id);
  await desktop.sandbox.call('files.write', { path: 'note.html', data: page(shows) });
  await desktop.sandbox.call('browser.open', { url: 'file:///home/agent/note.html' });
  // Shown once the page's button is on the accessibility bus (a first launch lays the window out after the load).
  const shown = async () => (await desktop.sandbox.call('a11y.tree', { values: false })).nodes.some((n) => n.name === label) || undefined;
  await pollUntil('the page on the screen', shown, { timeoutMs: 30_000 });
  if (!window) return;
  const restore = (await desktop.sandbox.call('a11y.tree', { values: false })).nodes.find(
    (n) => n.role.endsWith('button') && n.name === 'Restore',
  );
  if (!restore) throw new Error('Chromium shows no Restore button: is its window maximized?');
  const { x, y, width, height } = restore.bounds;
  const moved = await desktop.sandbox.call('exec.run', {
    command: [
      'sh',
      '-c',
      `xdotool mousemove ${x + Math.round(width / 2)} ${y + Math.round(height / 2)} click 1 && sleep 0.5 && W=$(xdotool getactivewindow) && ` +
        `xdotool windowsize $W ${window.width} ${window.height} windowmove $W ${window.x} ${window.y} && sleep 0.5 && xdotool getwindowgeometry $W`,
    ],
  });
  expect(moved.stdout).toContain(`Position: ${window.x},${window.y}`);
  expect(moved.stdout).toContain(`Geometry: ${window.width}x${window.height}`);
}

/** The last text of a chat request (the newest message's text parts). */
function promptOf(request: ReceivedRequest): string {
  return JSON.stringify(request.body.messages);
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });

describe.skipIf(skip)(`desktop recordings that survive change${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let recorded: { yaml: string; playbook: Playbook };

  /** Records the goal run at 1280×800: a screenshot, a click on the green button found in it, done. */
  async function record(screen = WXGA): Promise<{ yaml: string; playbook: Playbook }> {
    const { h, parts } = openProduct(screen);
    const workspace = tempDir('agent-desk-replay-ws-');
    server.script(
      'chat',
      call('computer', { action: 'screenshot' }),
      async (request: ReceivedRequest) => {
        const shot = latestImage(request);
        const seen = shot && (await findColour(shot, GREEN));
        if (!seen) throw new Error('the green button is not on the screenshot the model was sent');
        return call('computer', { action: 'click', x: seen.x, y: seen.y });
      },
      { text: 'Saved the note.' },
    );
    const task = await h.rt.engine.create({
      title: 'save the note',
      plan: { kind: 'goal', goal: GOAL, acceptance: [CHECK] },
      inputs: {},
      workspace,
      sandbox: 'desktop',
    });
    await showPage(parts, task, { label: 'Save note', dark: false });
    const done = await h.rt.engine.run(task.id);
    expect(server.scriptErrors).toEqual([]);
    expect(done.state, done.stateReason).toBe('succeeded');
    const response = (await h.rt.dispatcher.dispatch(
      { id: 1, method: 'tasks.record', params: { taskId: task.id } },
      { scopes: ['operator.read'], clientId: 'test' },
    )) as { result: { yaml: string; playbook: Playbook } };
    return response.result;
  }

  /** Replays a recorded playbook (on a 1920×1080 desktop) whose page is shown in a moved, resized window. */
  async function replay(yaml: string, label: string, screen = FULL_HD, moved = true): Promise<{ h: TestRuntime; task: Task }> {
    const { h, parts } = openProduct(screen);
    const workspace = tempDir('agent-desk-replay-ws-');
    const task = await h.rt.engine.create({
      title: 'replay',
      plan: { kind: 'playbook', source: yaml, baseDir: workspace },
      inputs: {},
      workspace,
    });
    await showPage(parts, task, { label, dark: true }, moved ? { x: 420, y: 160, width: 1100, height: 760 } : undefined);
    return { h, task: await h.rt.engine.run(task.id) };
  }

  beforeAll(async () => {
    if (!skip) recorded = await record();
  }, 600_000);

  it('the recorded click keeps its element beside its coordinate and the screenshot size', () => {
    const click = recorded.playbook.steps.find((s) => s.tool === 'computer' && s.args.action === 'click')!;
    expect(click.args).toMatchObject({
      x: expect.any(Number),
      y: expect.any(Number),
      target: { role: expect.stringMatching(/button/), name: 'Save note' },
      recordedSpace: { width: 1280, height: 800 },
    });
    expect(recorded.playbook.heal?.model).toBe('local:gpt-test');
  });

  it('replays at 1920×1080, in a moved window and the dark theme, with 0 model calls', async () => {
    const before = server.received('chat').length;
    const { task } = await replay(recorded.yaml, 'Save note');
    expect(task.state, task.stateReason).toBe('succeeded');
    expect(server.received('chat')).toHaveLength(before);
    expect(task.usage.modelCalls).toBe(0);
  }, 600_000);

  it('with the label changed, asks the model once, heals the step, and the saved playbook holds the healed step', async () => {
    const before = server.received('chat').length;
    // The healing model reads the buttons its prompt names and picks the one that saves.
    server.script('chat', (request: ReceivedRequest) => {
      const offered = [...promptOf(request).matchAll(/button \\"([^"\\]+)\\" \(Chromium\)/g)].map((m) => m[1]!);
      const save = offered.find((name) => /^save/i.test(name));
      if (!save) throw new Error(`no save button among the candidates: ${offered.join(', ')}`);
      return call('computer', { action: 'click', target: { role: 'button', name: save } });
    });
    const { h, task } = await replay(recorded.yaml, 'Save');
    expect(server.scriptErrors).toEqual([]);
    expect(task.state, task.stateReason).toBe('succeeded');
    expect(server.received('chat')).toHaveLength(before + 1);
    expect(task.usage.modelCalls).toBe(1);
    expect(promptOf(server.received('chat').at(-1)!)).toMatch(/no element on the screen is .*Save note/);

    const file = path.join(tempDir('agent-desk-replay-saved-'), 'save-note.yaml');
    writeFileSync(file, recorded.yaml);
    expect(await saveHealed(h.rt, task, file)).toEqual([recorded.playbook.steps.findIndex((s) => s.args.action === 'click')]);
    const saved = parsePlaybook(readFileSync(file, 'utf8'));
    const click = saved.steps.find((s) => s.tool === 'computer' && s.args.action === 'click')!;
    expect(click.args).toMatchObject({
      target: { role: expect.stringMatching(/button/), name: 'Save' },
      recordedSpace: { width: 1366, height: 768 },
    });
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(recorded.yaml);

    // The saved playbook replays the changed page with no model.
    const again = await replay(readFileSync(file, 'utf8'), 'Save');
    expect(again.task.state, again.task.stateReason).toBe('succeeded');
    expect(server.received('chat')).toHaveLength(before + 1);
  }, 900_000);

  it("on a HiDPI desktop (1280×800 at scale 2: 2560×1600 pixels) the model's click lands and the recording replays with 0 model calls", async () => {
    const hidpi: Screen = { ...WXGA, scale: 2 };
    const atScale = await record(hidpi);
    const click = atScale.playbook.steps.find((s) => s.tool === 'computer' && s.args.action === 'click')!;
    // The model saw a 1280×800 screenshot of the 2560×1600 screen; its click found the button.
    expect(click.args).toMatchObject({ target: { name: 'Save note' }, recordedSpace: { width: 1280, height: 800 } });
    const before = server.received('chat').length;
    // Maximized: at scale 2 Chromium's own window buttons are reported in points, not pixels, so the test cannot press Restore.
    const { task } = await replay(recorded.yaml, 'Save note', hidpi, false);
    expect(task.state, task.stateReason).toBe('succeeded');
    expect(server.received('chat')).toHaveLength(before);
  }, 900_000);
});
