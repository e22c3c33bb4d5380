import type { ElementTarget, ScreenBox } from '../../../contract/index.js';
import type { GroundingScene, GroundingScreen, GroundingTheme } from './groundingCase.js';
import { groundingReport, type GroundingCaseResult, type GroundingReport } from './groundingReport.js';
import { scoreCase, type GroundingOutcome } from './groundingScore.js';
import type { GroundingPageFile, LoadedGroundingSuite } from './loadGroundingSuite.js';

/** A scene on the screen: where its layout puts things, and how to take it away. */
export interface ShownScene {
  /** A page element's box by id; for an application, its window's box (the id is not used). */
  layoutBox(element?: string): Promise<ScreenBox | undefined>;
  hide(): Promise<void>;
}

/** One real desktop at one screen size (the capability layer starts it as the product does). */
export interface GroundingDesktop {
  show(scene: GroundingScene, theme: GroundingTheme): Promise<ShownScene>;
  /** Resolves a target with the product's resolver; its errors become outcomes. */
  resolve(target: ElementTarget): Promise<GroundingOutcome>;
  close(): Promise<void>;
}

/** Starts desktops; `image` is the desktop image they run. */
export interface GroundingDesktops {
  image: string;
  open(screen: GroundingScreen, pages: readonly GroundingPageFile[]): Promise<GroundingDesktop>;
}

const screenName = (s: GroundingScreen): string => `${s.width}x${s.height}`;
const seconds = (ms: number): number => Math.round(ms / 100) / 10;
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Runs every scene's targets on one desktop per screen size, in each theme, and scores them.
 * Desktops run one after another (two at once would double the load on a small machine).
 */
export async function runGroundingSuite(loaded: LoadedGroundingSuite, desktops: GroundingDesktops): Promise<GroundingReport> {
  const started = performance.now();
  const perCase: GroundingCaseResult[] = [];
  const desktopStartSeconds: Record<string, number> = {};
  for (const screen of loaded.suite.screens) {
    const opening = performance.now();
    let desktop: GroundingDesktop;
    try {
      desktop = await desktops.open(screen, loaded.pages);
    } catch (error) {
      for (const theme of loaded.suite.themes)
        for (const scene of loaded.scenes)
          perCase.push(...failedScene(scene, screen, theme, `the desktop did not start: ${message(error)}`));
      continue;
    }
    desktopStartSeconds[screenName(screen)] = seconds(performance.now() - opening);
    try {
      for (const theme of loaded.suite.themes)
        for (const scene of loaded.scenes) perCase.push(...(await runScene(desktop, scene, screen, theme)));
    } finally {
      await desktop.close();
    }
  }
  const wallSeconds = seconds(performance.now() - started);
  return groundingReport({ suite: loaded.suite.name, image: desktops.image, wallSeconds, desktopStartSeconds }, perCase);
}

async function runScene(
  desktop: GroundingDesktop,
  scene: GroundingScene,
  screen: GroundingScreen,
  theme: GroundingTheme,
): Promise<GroundingCaseResult[]> {
  let shown: ShownScene;
  try {
    shown = await desktop.show(scene, theme);
  } catch (error) {
    return failedScene(scene, screen, theme, `the scene did not show: ${message(error)}`);
  }
  const out: GroundingCaseResult[] = [];
  try {
    for (const t of scene.targets) {
      const element = t.expect.outcome === 'found' ? t.expect.element : undefined;
      const expectedBox = t.expect.outcome === 'found' ? await shown.layoutBox(element) : undefined;
      const began = performance.now();
      const actual = await desktop.resolve(t.target);
      const ms = Math.round(performance.now() - began);
      const verdict = scoreCase(t.expect, actual, { kind: scene.app ? 'window' : 'element', ...(expectedBox && { box: expectedBox }) });
      const gap = t.knownGap && (t.knownGap.theme === undefined || t.knownGap.theme === theme) ? { knownGap: t.knownGap.why } : {};
      out.push({
        ...base(scene, t.name, screen, theme),
        wanted: t.target,
        expected: t.expect,
        ...(expectedBox && { expectedBox }),
        actual,
        ...verdict,
        ...gap,
        ms,
      });
    }
  } finally {
    // A scene left up would show in the next one's cases, which then fail and say so.
    await shown.hide().catch(() => undefined);
  }
  return out;
}

function base(scene: GroundingScene, target: string, screen: GroundingScreen, theme: GroundingTheme) {
  return { scene: scene.name, target, language: scene.language, screen: screenName(screen), theme };
}

function failedScene(scene: GroundingScene, screen: GroundingScreen, theme: GroundingTheme, why: string): GroundingCaseResult[] {
  return scene.targets.map((t) => ({
    ...base(scene, t.name, screen, theme),
    wanted: t.target,
    expected: t.expect,
    actual: { outcome: 'error', message: why },
    pass: false,
    why,
    ms: 0,
  }));
}
