import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { CHROMIUM_FLAGS } from '../../../electron/capabilities/browser/chromium.js';
import { CliSandbox, REPO_ROOT } from '../../support/cliSandbox.js';
import type { ServeProcess } from '../../support/serveProcess.js';

/** Where every renderer e2e saves its screenshots, one per view. */
export const SHOTS = path.join(REPO_ROOT, 'test-results', 'renderer');
const BUILT_UI = path.join(REPO_ROOT, 'dist', 'renderer', 'index.html');
/** Generous upper bounds for a page to react; they bound waits, they do not measure speed. */
export const WAIT = { timeout: 30_000 };

/** Launches the system Chromium the renderer tests drive. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.AGENT_DESK_CHROMIUM ?? '/usr/bin/chromium', args: [...CHROMIUM_FLAGS] });
}

/** Fails early with the fix when the production build is missing. */
export function requireBuiltUi(): void {
  if (!existsSync(BUILT_UI)) throw new Error(`${BUILT_UI} is missing: run \`npm run build:renderer\` (pretest does)`);
  mkdirSync(SHOTS, { recursive: true });
}

/** Opens the web UI the way a user does: the URL with `#token=…` that serve prints. Page errors are collected. */
export async function openUi(browser: Browser, serve: ServeProcess): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${serve.info.httpUrl}/#token=${encodeURIComponent(serve.info.token)}`);
  return { page, problems };
}

/** Saves a full-page screenshot of the current view. */
export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/**
 * One Chromium per test file (unless `skip` says why not) and a CLI home per test, removed after it.
 * Call once at the top of a file; `browser` throws when read with no browser launched.
 */
export function useUiSession(skip: string | undefined): { readonly browser: Browser; home(cli?: CliSandbox): CliSandbox } {
  let browser: Browser | undefined;
  let cli: CliSandbox | undefined;
  beforeAll(async () => {
    if (!skip) browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await cli?.cleanup();
    cli = undefined;
  });
  return {
    get browser() {
      if (!browser) throw new Error('no browser');
      return browser;
    },
    /** This test's CLI home: a fresh one, or the one given. */
    home(made = new CliSandbox()) {
      cli = made;
      return made;
    },
  };
}
