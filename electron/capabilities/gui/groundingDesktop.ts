import type { ElementTarget, ScreenBox } from '../../contract/index.js';
import type { GroundingApp, GroundingScene, GroundingScreen, GroundingTheme } from '../../runtime/evaluation/grounding/groundingCase.js';
import type { GroundingDesktop, GroundingDesktops, ShownScene } from '../../runtime/evaluation/grounding/groundingRunner.js';
import type { GroundingOutcome } from '../../runtime/evaluation/grounding/groundingScore.js';
import type { GroundingPageFile } from '../../runtime/evaluation/grounding/loadGroundingSuite.js';
import { STAGE_FILE, stagePage, stageTitleEnd, stageUrl } from '../../runtime/evaluation/grounding/stagePage.js';
import type { DesktopSandbox } from '../sandbox/desktopSandbox.js';
import { buildDesktopImage, sandboxSourceRoot } from '../sandbox/imageBuilder.js';
import { SandboxDriver } from '../sandbox/sandboxDriver.js';
import { resolveTarget, TargetError } from './targetResolver.js';

/** Where the suite's pages go in the desktop's home folder. */
const PAGES = 'grounding';
/** How long a page's or an application's objects may take to reach the accessibility bus. */
const SHOW_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + SHOW_TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${SHOW_TIMEOUT_MS / 1000} s`);
    await sleep(250);
  }
}

const settle = (sandbox: DesktopSandbox) => sandbox.call('screen.waitStable', { frames: 4, intervalMs: 50, timeoutMs: 10_000 });

/** The stage (one document: see stagePage.ts) showing a page, or nothing, in a theme; waits until the tree has it. */
async function showStage(sandbox: DesktopSandbox, page: string | undefined, theme: GroundingTheme): Promise<void> {
  const end = stageTitleEnd(page, theme);
  await sandbox.call('browser.open', { url: stageUrl(`/home/agent/${PAGES}`, page, theme) });
  await until(`the page ${page ?? '(empty)'} shown`, async () =>
    (await sandbox.call('browser.state', {})).title?.endsWith(end) ? true : undefined,
  );
  // The tree follows the page a moment later: wait for the window's title and the page's own
  // labels (from its DOM) among Chromium's objects.
  const labels = (await sandbox.call('browser.targets', {})).targets.map((t) => t.text).filter(Boolean);
  await until(`the page ${page ?? '(empty)'} on the accessibility bus`, async () => {
    const nodes = (await sandbox.call('a11y.tree', { values: false })).nodes.filter((n) => n.app === 'Chromium');
    const framed = nodes.some((n) => n.role === 'frame' && n.name.includes(end));
    return (framed && (labels.length === 0 || nodes.some((n) => n.role !== 'frame' && labels.includes(n.name)))) || undefined;
  });
  await settle(sandbox);
}

/** A page scene: boxes from the page's own layout (getBoundingClientRect on the screen). */
async function showPage(sandbox: DesktopSandbox, page: string, theme: GroundingTheme): Promise<ShownScene> {
  await showStage(sandbox, page, theme);
  return {
    layoutBox: async (element) => (await sandbox.call('browser.targets', {})).targets.find((t) => t.id === element)?.rect,
    hide: async () => undefined,
  };
}

/** An application scene: started detached with the theme in GTK_THEME; boxes bounded by its window. */
async function showApp(sandbox: DesktopSandbox, app: GroundingApp, theme: GroundingTheme): Promise<ShownScene> {
  // An empty stage behind the window: no page controls to be confused with the application's.
  await showStage(sandbox, undefined, theme);
  const gtkTheme = theme === 'dark' ? 'Adwaita:dark' : 'Adwaita';
  const line = `GTK_THEME=${gtkTheme} ${app.command.map(quote).join(' ')} >/dev/null 2>&1 & echo $!`;
  const pid = (await sandbox.call('exec.run', { command: ['sh', '-c', line] })).stdout.trim();
  const onBus = async () => (await sandbox.call('a11y.tree', { values: false })).nodes.filter((n) => n.app === app.busName);
  await until(
    `${app.busName}'s controls on the accessibility bus`,
    async () => (await onBus()).some((n) => n.role.includes('button')) || undefined,
  );
  await settle(sandbox);
  const window = await windowBox(sandbox, app.windowTitle);
  return {
    layoutBox: async () => window,
    hide: async () => {
      await sandbox.call('exec.run', { command: ['kill', pid] });
      await until(`${app.busName} gone from the accessibility bus`, async () => ((await onBus()).length === 0 ? true : undefined));
    },
  };
}

/** The window's box on the screen as the X server has it (xwininfo's absolute corner), independent of the tree. */
async function windowBox(sandbox: DesktopSandbox, title: string): Promise<ScreenBox | undefined> {
  const run = await sandbox.call('exec.run', { command: ['xwininfo', '-name', title], timeoutMs: 10_000 });
  const field = (label: string) => Number(new RegExp(`^\\s*${label}:\\s+(-?\\d+)$`, 'm').exec(run.stdout)?.[1] ?? NaN);
  const box = { x: field('Absolute upper-left X'), y: field('Absolute upper-left Y'), width: field('Width'), height: field('Height') };
  return Object.values(box).every(Number.isFinite) ? box : undefined;
}

/** Resolves with the product's resolver; its TargetErrors are the ambiguous and missed outcomes. */
async function resolveOnDesktop(sandbox: DesktopSandbox, target: ElementTarget): Promise<GroundingOutcome> {
  try {
    const { target: found } = await resolveTarget(sandbox, target);
    return {
      outcome: 'found',
      resolver: found.resolver,
      box: found.box,
      ...((found.name ?? found.text) !== undefined && { label: found.name ?? found.text }),
    };
  } catch (error) {
    if (error instanceof TargetError)
      return {
        outcome: error.code === 'target_ambiguous' ? 'ambiguous' : 'missed',
        candidates: [...error.candidates],
        message: error.message,
      };
    return { outcome: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

async function openDesktop(
  image: string,
  owner: string,
  screen: GroundingScreen,
  pages: readonly GroundingPageFile[],
): Promise<GroundingDesktop> {
  const driver = new SandboxDriver({ image, owner, limits: { screen } });
  let sandbox: DesktopSandbox;
  try {
    sandbox = await driver.create({ task: 'eval-grounding' });
    await sandbox.call('files.write', { path: `${PAGES}/${STAGE_FILE}`, data: stagePage(pages) });
  } catch (error) {
    await driver.close();
    throw error;
  }
  return {
    show: (scene: GroundingScene, theme: GroundingTheme) =>
      scene.app ? showApp(sandbox, scene.app, theme) : showPage(sandbox, scene.page!, theme),
    resolve: (target) => resolveOnDesktop(sandbox, target),
    close: async () => {
      try {
        await sandbox.destroy();
      } finally {
        await driver.close();
      }
    },
  };
}

/**
 * Real desktops for the grounding suite, started as the product starts them (SandboxDriver, the
 * hardened container, sandboxd), one per screen size; the image is the given one or the
 * content-hash tag of the sources (built when absent).
 */
export async function groundingDesktops(o: { image?: string; owner: string }): Promise<GroundingDesktops> {
  const image = o.image ?? (await buildDesktopImage({ root: sandboxSourceRoot() })).image;
  return { image, open: (screen, pages) => openDesktop(image, o.owner, screen, pages) };
}
