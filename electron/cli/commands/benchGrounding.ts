import type { Command } from 'commander';
import { resolveTarget } from '../../capabilities/gui/targetResolver.js';
import { buildDesktopImage, sandboxSourceRoot } from '../../capabilities/sandbox/imageBuilder.js';
import { SandboxDriver } from '../../capabilities/sandbox/sandboxDriver.js';
import type { DesktopSandbox } from '../../capabilities/sandbox/desktopSandbox.js';
import { printJson, reportError } from '../output.js';
import { median, percentile, round } from './benchStats.js';
import { benchMachine } from './benchRuntime.js';

const ms = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e6;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

// A form page: a dozen controls for the tree, a canvas (no tree objects) for OCR.
const PAGE = `<!doctype html><meta charset="utf-8"><title>Bench</title>
<style>body { font: 20px "Noto Sans CJK SC", sans-serif; } button, input { font-size: 20px; margin: 8px; }</style>
${['New', 'Open', 'Save note', 'Export', 'Print', 'Share', '保存', '取消'].map((b) => `<button>${b}</button>`).join('')}
<p><label>Title <input></label> <label>Author <input></label> <a href="#">Help</a></p>
<canvas id="c" width="520" height="120"></canvas>
<script>
  const g = document.getElementById('c').getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, 520, 120); g.fillStyle = '#000';
  g.font = '30px "Noto Sans CJK SC", sans-serif'; g.fillText('Quarterly report', 10, 45); g.fillText('提交订单', 10, 100);
</script>`;

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { medianMs: round(median(sorted)), p95Ms: round(percentile(sorted, 0.95)) };
};

async function timed(runs: number, f: () => Promise<unknown>): Promise<number[]> {
  await f(); // warm-up: the reader process, Tesseract's data in the page cache
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await f();
    out.push(ms(t));
  }
  return out;
}

async function atSize(sandbox: DesktopSandbox, runs: number): Promise<Record<string, unknown>> {
  await sandbox.call('files.write', { path: 'bench.html', data: PAGE });
  await sandbox.call('browser.open', { url: 'file:///home/agent/bench.html' });
  await sandbox.call('screen.waitStable', { frames: 4, intervalMs: 50, timeoutMs: 10_000 });
  const tree = await sandbox.call('a11y.tree', { values: false });
  const canvas = (await resolveTarget(sandbox, { text: 'Quarterly report' })).target.box;
  const region = { x: Math.max(0, canvas.x - 40), y: Math.max(0, canvas.y - 60), width: 600, height: 200 };
  return {
    treeNodes: tree.nodes.length,
    a11yTree: stats(await timed(runs, () => sandbox.call('a11y.tree', { values: false }))),
    resolveByTree: stats(await timed(runs, () => resolveTarget(sandbox, { role: 'button', name: 'Save note' }))),
    ocrRegionEnglish600x200: stats(await timed(runs, () => sandbox.call('ocr.read', { region, languages: ['eng'] }))),
    ocrRegionChinese600x200: stats(await timed(runs, () => sandbox.call('ocr.read', { region, languages: ['chi_sim', 'eng'] }))),
    ocrScreenEnglish: stats(await timed(Math.min(runs, 5), () => sandbox.call('ocr.read', { languages: ['eng'] }))),
    resolveByOcrScreen: stats(await timed(Math.min(runs, 5), () => resolveTarget(sandbox, { text: 'Quarterly report' }))),
  };
}

/**
 * Grounding figures at 1280×800 and 1920×1080 (median, p95): reading the accessibility tree,
 * resolving a {role, name} target through it, OCR of a 600×200 region (English; 中文 + English)
 * and of the whole screen, and resolving a {text} target that only OCR finds.
 */
export async function benchGrounding(runs: number): Promise<Record<string, unknown>> {
  const { image } = await buildDesktopImage({ root: sandboxSourceRoot() });
  const sizes: Record<string, unknown> = {};
  for (const screen of SIZES) {
    const driver = new SandboxDriver({ image, owner: `bench-${process.pid}`, limits: { screen } });
    try {
      const sandbox = await driver.create();
      sizes[`${screen.width}x${screen.height}`] = await atSize(sandbox, runs);
      await sandbox.destroy();
    } finally {
      await driver.close();
    }
  }
  return { image, runs, sizes, goals: { treeResolveMs: 50, ocrRegion1920x1080Ms: 500 }, machine: benchMachine() };
}

/** Registers `agent-desk bench grounding` on the bench command. */
export function registerBenchGrounding(bench: Command): void {
  bench
    .command('grounding')
    .description('element targets: accessibility tree and OCR resolve times at 1280×800 and 1920×1080')
    .option('--runs <n>', 'timed runs per figure (median and p95 reported)', '20')
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { runs: string; json?: boolean }) => {
      try {
        const figures = await benchGrounding(Number(opts.runs));
        if (opts.json) printJson(figures);
        else console.log(JSON.stringify(figures));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
