import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { CHROMIUM_FLAGS, findChromium, playwrightChromium } from '../../capabilities/browser/chromium.js';
import { startWsGateway } from '../../capabilities/transports/wsServer.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { printJson, reportError } from '../output.js';
import { RENDERER_DIST, webUiHandler } from '../../capabilities/transports/webUi.js';
import { benchMachine, openBenchRuntime } from './benchRuntime.js';
import { median, round } from './benchStats.js';
import { benchUiLatency } from './benchUiLatency.js';

const SEEDED_TASKS = 25;
const PLAYBOOK = 'name: bench-ui\nsteps:\n  - tool: fs.list\n    args: { path: . }\n';

/** Raw and gzip bytes of the production renderer build, by kind (js, css, html). */
export function bundleSize(root: string = RENDERER_DIST): Record<string, { bytes: number; gzipBytes: number }> {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  let all: string[];
  try {
    all = files(root);
  } catch {
    throw new AgentDeskError('unavailable', `no renderer build at ${root}: run \`npm run build\` first`);
  }
  const sizes: Record<string, { bytes: number; gzipBytes: number }> = { total: { bytes: 0, gzipBytes: 0 } };
  for (const file of all) {
    const kind = path.extname(file).slice(1) || 'other';
    const content = readFileSync(file);
    const entry = (sizes[kind] ??= { bytes: 0, gzipBytes: 0 });
    const gz = gzipSync(content).length;
    entry.bytes += content.length;
    entry.gzipBytes += gz;
    sizes.total!.bytes += content.length;
    sizes.total!.gzipBytes += gz;
  }
  return sizes;
}

/**
 * Renderer figures: production bundle size, and the median time from `page.goto` of the web UI
 * (served by a real gateway over a runtime with seeded tasks) to its first task list row.
 */
export async function benchUi(runs: number): Promise<Record<string, unknown>> {
  const bundle = bundleSize();
  const executablePath = findChromium();
  const { rt, home, dispose } = await openBenchRuntime('ui');
  const token = randomBytes(24).toString('base64url');
  const gateway = await startWsGateway({ token, dispatcher: rt.dispatcher, bus: rt.bus, httpHandler: webUiHandler() });
  const browser = await (await playwrightChromium()).launch({ executablePath, args: [...CHROMIUM_FLAGS] });
  const loads: number[] = [];
  let latency: Awaited<ReturnType<typeof benchUiLatency>>;
  try {
    for (let i = 0; i < SEEDED_TASKS; i++)
      await rt.tasks.create({
        source: { kind: 'playbook', source: PLAYBOOK, baseDir: home },
        requester: { kind: 'local' },
        title: `bench task ${i}`,
      });
    for (let i = 0; i <= runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const started = process.hrtime.bigint();
      await page.goto(`${gateway.httpUrl}/#token=${token}`);
      await page.waitForSelector('[data-testid="task-list"] tbody tr', { timeout: 30_000 });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      await context.close();
      if (i > 0) loads.push(ms); // the first run warms the HTTP cache and Chromium's code cache
    }
    latency = await benchUiLatency(browser, runs);
  } finally {
    await browser.close();
    await gateway.close();
    await dispose();
  }
  return {
    runs,
    bundle,
    ms: { pageLoadToTaskList: round(median(loads)), pageLoadToTaskListMax: round(Math.max(...loads)), ...latency },
    notes:
      `page load: fresh browser context per run (cold page cache), ${SEEDED_TASKS} tasks in the store; ` +
      'goal → first step card: typed in the composer, the product goal planner with an in-process scripted model (fs.write, then the answer); ' +
      'approval → dialog: from the runtime emitting approval.requested for a playbook fs.delete to the dialog shown; gateway and runtime in this process',
    chromium: executablePath,
    machine: benchMachine(),
  };
}

/** `agent-desk bench ui --json`. */
export function registerBenchUi(bench: Command): void {
  bench
    .command('ui')
    .description('renderer bundle size (gzip); page load → task list, goal → first step card, approval → dialog in Chromium (median ms)')
    .option('--runs <n>', 'timed runs (after one warm-up)', '10')
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { runs: string; json?: boolean }) => {
      try {
        const figures = await benchUi(Number(opts.runs));
        if (opts.json) printJson(figures);
        else console.log(JSON.stringify(figures));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
