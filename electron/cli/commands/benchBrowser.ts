import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { BrowserHost } from '../../capabilities/browser/browserHost.js';
import { findChromium } from '../../capabilities/browser/chromium.js';
import { printJson, reportError } from '../output.js';
import { median, round } from './benchStats.js';
import { benchMachine } from './benchRuntime.js';

const PAGE = `<!doctype html><html><head><title>bench</title></head><body>
<h1>Bench</h1><button id="b" onclick="document.getElementById('out').textContent='clicked ' + (++window.n || (window.n = 1))">Go</button>
<p id="out"></p></body></html>`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Browser tier figures in ms (medians): Chromium launch to a usable browser, navigating to a
 * local page through the task session (allowlist interception on), a click, a PNG screenshot.
 */
export async function benchBrowser(runs: number): Promise<Record<string, unknown>> {
  const executablePath = findChromium();
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-browser-'));
  const launch: number[] = [];
  const navigate: number[] = [];
  const click: number[] = [];
  const screenshot: number[] = [];
  const navigateAgain: number[] = [];
  const clickAgain: number[] = [];
  try {
    for (let i = 0; i <= runs; i++) {
      const host = new BrowserHost({ networkAllow: ['127.0.0.1'], executablePath });
      const launchMs = await timed(() => host.launch());
      const session = await host.session(workspace);
      const navigateMs = await timed(() => session.page.goto(url));
      const clickMs = await timed(() => session.page.locator('#b').click());
      const shotMs = await timed(() => session.page.screenshot({ type: 'png' }));
      // The same again on the warm page: what each later step of a task pays.
      const navigateAgainMs = await timed(() => session.page.goto(url));
      const clickAgainMs = await timed(() => session.page.locator('#b').click());
      await host.close();
      if (i === 0) continue; // warm-up: page cache and JIT
      launch.push(launchMs);
      navigate.push(navigateMs);
      click.push(clickMs);
      screenshot.push(shotMs);
      navigateAgain.push(navigateAgainMs);
      clickAgain.push(clickAgainMs);
    }
  } finally {
    server.close();
    rmSync(workspace, { recursive: true, force: true });
  }
  return {
    runs,
    ms: {
      launch: round(median(launch)),
      navigateLocal: round(median(navigate)),
      click: round(median(click)),
      screenshot: round(median(screenshot)),
      navigateLocalWarm: round(median(navigateAgain)),
      clickWarm: round(median(clickAgain)),
    },
    notes: 'first navigate/click in a fresh context, then the same on the warm page; allowlist interception on',
    chromium: executablePath,
    viewport: '1280x800',
    machine: benchMachine(),
  };
}

/** `agent-desk bench browser --json`. */
export function registerBenchBrowser(bench: Command): void {
  bench
    .command('browser')
    .description('Chromium launch, local navigation, click and screenshot (medians, ms)')
    .option('--runs <n>', 'timed runs (after one warm-up)', '10')
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { runs: string; json?: boolean }) => {
      try {
        const figures = await benchBrowser(Number(opts.runs));
        if (opts.json) printJson(figures);
        else console.log(JSON.stringify(figures));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
