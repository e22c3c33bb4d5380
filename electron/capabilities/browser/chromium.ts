import { existsSync } from 'node:fs';
import { AgentDeskError } from '../../runtime/errors.js';

/** Flags that keep Chromium quiet and offline-friendly on servers and in CI (no GPU, no update or sync traffic). */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Where installed Chromium-family browsers live, in the order they are tried after AGENT_DESK_CHROMIUM. */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/opt/google/chrome/chrome',
  '/usr/bin/google-chrome-beta',
  '/opt/google/chrome-beta/chrome',
  '/usr/bin/microsoft-edge-stable',
  '/opt/microsoft/msedge/msedge',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

/**
 * The Chromium to drive: `AGENT_DESK_CHROMIUM` when set (it must exist), else the first
 * installed candidate. Agent Desk never downloads a browser; with none installed it says what to install.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, exists: (p: string) => boolean = existsSync): string {
  const configured = env.AGENT_DESK_CHROMIUM;
  if (configured) {
    if (exists(configured)) return configured;
    throw new AgentDeskError(
      'unavailable',
      `AGENT_DESK_CHROMIUM is ${configured}, but no file is there; point it at a Chromium or Chrome binary`,
      {
        path: configured,
      },
    );
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => exists(candidate));
  if (found) return found;
  throw new AgentDeskError(
    'unavailable',
    'no Chromium found for the browser tier. Install one (Debian/Ubuntu: `apt-get install chromium`; or Google Chrome) ' +
      'or set AGENT_DESK_CHROMIUM=/path/to/chrome. Agent Desk does not download browsers.',
    { tried: CHROMIUM_CANDIDATES },
  );
}

/** playwright-core's Chromium launcher, loaded on first launch: importing it was the largest share of every CLI start. */
export async function playwrightChromium(): Promise<typeof import('playwright-core').chromium> {
  return (await import('playwright-core')).chromium;
}
