import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { SandboxdResult } from '../../../../electron/contract/sandboxProtocol.js';
import { screenSize } from './capture.js';
import { HOME } from './home.js';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--window-position=0,0',
  '--start-maximized',
  '--test-type',
  // Builds the page's accessibility tree and exposes it on AT-SPI (a11y.tree reads it).
  '--force-renderer-accessibility',
  // On the egress network the runtime's allowlisting proxy is the only way out; loopback too, so
  // an allowlisted `127.0.0.1:<port>` is the host's service the proxy reaches (the desktop has none).
  ...(process.env.https_proxy ? [`--proxy-server=${process.env.https_proxy}`, '--proxy-bypass-list=<-loopback>'] : []),
];

let context: BrowserContext | undefined;
let page: Page | undefined;

/** Whether the in-sandbox browser is open. */
export const browserOpen = (): boolean => context !== undefined;

async function ensurePage(): Promise<Page> {
  if (page && !page.isClosed()) return page;
  if (!context) {
    const downloads = path.join(HOME, 'Downloads');
    await mkdir(downloads, { recursive: true });
    // Headed on the sandbox display, so GUI actions and screenshots see it.
    // Loaded on first use: playwright-core takes ~1.5 s to import on these machines.
    const { chromium } = await import('playwright-core');
    // Sized to the screen: `--start-maximized` alone left Chromium at its default size, a black
    // strip of desktop on the right of every screenshot.
    const { width, height } = await screenSize();
    context = await chromium.launchPersistentContext(path.join(HOME, '.chromium'), {
      headless: false,
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [...ARGS, `--window-size=${width},${height}`],
      viewport: null,
      acceptDownloads: true,
      env: { ...process.env } as Record<string, string>,
    });
    // Downloads land in ~/Downloads under their suggested name, where checks can find them.
    context.on('page', (p) => p.on('download', (d) => void d.saveAs(path.join(downloads, d.suggestedFilename()))));
    for (const p of context.pages()) p.on('download', (d) => void d.saveAs(path.join(downloads, d.suggestedFilename())));
  }
  page = context.pages()[0] ?? (await context.newPage());
  await fillScreen(page, await screenSize());
  return page;
}

interface WindowBounds {
  width?: number;
  height?: number;
  windowState?: string;
}

// How long the window manager gets to settle the maximized window before the first page loads.
const SETTLE_MS = 3_000;

/**
 * Asks the window manager to maximize the window (the launch size alone stopped a pixel short),
 * then waits until the window has the screen's size: the request returns before the window
 * manager acts, and a page loaded in between saw a 0×0 window.
 */
async function fillScreen(p: Page, screen: { width: number; height: number }): Promise<void> {
  const cdp = await p.context().newCDPSession(p);
  try {
    const { windowId } = (await cdp.send('Browser.getWindowForTarget')) as { windowId: number };
    await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'maximized' } });
    const filled = async () => {
      const { bounds } = (await cdp.send('Browser.getWindowBounds', { windowId })) as { bounds: WindowBounds };
      return bounds.width === screen.width && bounds.height === screen.height;
    };
    const until = Date.now() + SETTLE_MS;
    while (!(await filled()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await cdp.detach();
  }
}

/** browser.open: navigates the sandbox Chromium (launching it first). */
export async function openUrl(url: string): Promise<SandboxdResult<'browser.open'>> {
  const p = await ensurePage();
  await p.goto(url, { waitUntil: 'load' });
  return { url: p.url(), title: await p.title() };
}

/** browser.state: the current page. */
export async function browserState(): Promise<SandboxdResult<'browser.state'>> {
  if (!page || page.isClosed()) return { open: false };
  return { open: true, url: page.url(), title: await page.title() };
}

/** browser.close. */
export async function closeBrowser(): Promise<SandboxdResult<'browser.close'>> {
  const had = context !== undefined;
  await context?.close();
  context = undefined;
  page = undefined;
  return { closed: had };
}

// Runs in the page: interactive elements, their visible text and their rectangle in screen
// pixels (the viewport's screen offset is the window position plus the browser chrome).
const COLLECT_TARGETS = `(() => {
  const dx = window.screenX + (window.outerWidth - window.innerWidth) / 2;
  const dy = window.screenY + (window.outerHeight - window.innerHeight);
  const sel = 'a,button,input,select,textarea,[role=button],[role=link],[onclick],[contenteditable=true]';
  return [...document.querySelectorAll(sel)].flatMap((el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.top > innerHeight) return [];
    const text = (el.getAttribute('aria-label') || el.innerText || el.value || el.getAttribute('title') || el.getAttribute('placeholder') || '').trim().slice(0, 200);
    return [{ text, role: el.getAttribute('role') || el.tagName.toLowerCase(), tag: el.tagName.toLowerCase(), id: el.id || undefined,
      rect: { x: Math.round(r.left * devicePixelRatio + dx), y: Math.round(r.top * devicePixelRatio + dy), width: Math.round(r.width), height: Math.round(r.height) } }];
  });
})()`;

/** browser.targets: what a click at a screen point would hit, for risk classification. */
export async function browserTargets(): Promise<SandboxdResult<'browser.targets'>> {
  if (!page || page.isClosed()) return { targets: [] };
  const targets = (await page.evaluate(COLLECT_TARGETS)) as SandboxdResult<'browser.targets'>['targets'];
  return { url: page.url(), targets };
}

/**
 * Commits text into the sandbox browser's focused element the way an IME does (CDP insertText),
 * when that browser has the keyboard focus; false otherwise (the caller pastes instead).
 */
export async function insertIntoFocusedPage(text: string): Promise<boolean> {
  if (!page || page.isClosed()) return false;
  const focused = await page.evaluate('document.hasFocus()').catch(() => false);
  if (focused !== true) return false;
  await page.keyboard.insertText(text);
  return true;
}
