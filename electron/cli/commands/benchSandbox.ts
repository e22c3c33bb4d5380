import type { Command } from 'commander';
import { streamFrames } from '../../capabilities/gui/frameStream.js';
import { buildDesktopImage, sandboxSourceRoot } from '../../capabilities/sandbox/imageBuilder.js';
import { SandboxDriver } from '../../capabilities/sandbox/sandboxDriver.js';
import { WarmPool } from '../../capabilities/sandbox/warmPool.js';
import { engineAddress } from '../../capabilities/sandbox/engineErrors.js';
import { SandboxRuntimeSchema, type SandboxRuntime } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { printJson, reportError } from '../output.js';
import { median, round } from './benchStats.js';
import { benchMachine } from './benchRuntime.js';

const ms = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e6;

/** `--runtime`: runc or runsc, else a typed error naming the option. */
export function parseBenchRuntime(value: string): SandboxRuntime {
  const parsed = SandboxRuntimeSchema.safeParse(value);
  if (!parsed.success) throw new AgentDeskError('invalid_params', `--runtime: "${value}" is not runc or runsc`, { field: 'runtime' });
  return parsed.data;
}

/**
 * Sandbox figures (medians): cold start → first screenshot, warm-pool acquire → first screenshot,
 * 1280×800 PNG screenshot round trip, live-stream frames per second. Desktops run on the default
 * engine (DOCKER_HOST) under `runtime`, which that engine must register.
 */
export async function benchSandbox(
  runs: number,
  streamSeconds: number,
  runtime: SandboxRuntime = 'runc',
): Promise<Record<string, unknown>> {
  const { image } = await buildDesktopImage({ root: sandboxSourceRoot() });
  const driver = new SandboxDriver({ image, owner: `bench-${process.pid}`, limits: { runtime } });
  try {
    await (await driver.create()).destroy(); // warm-up: page cache, image layers
    const cold: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = process.hrtime.bigint();
      const s = await driver.create();
      await s.call('screen.capture', { format: 'png' });
      cold.push(ms(t));
      await s.destroy();
    }
    const pool = new WarmPool(driver, 1);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      pool.fill();
      await pool.whenFull();
      const t = process.hrtime.bigint();
      const s = await pool.acquire();
      await s.call('screen.capture', { format: 'png' });
      warm.push(ms(t));
      await s.destroy();
    }
    await pool.close();
    const sandbox = await driver.create();
    const rtt: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = process.hrtime.bigint();
      await sandbox.call('screen.capture', { format: 'png' });
      rtt.push(ms(t));
    }
    let frames = 0;
    const stop = streamFrames(sandbox, () => frames++, { inFlight: 2, quality: 70 });
    const t = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, streamSeconds * 1000));
    await stop();
    const fps = frames / (ms(t) / 1000);
    return {
      image,
      runtime,
      runs,
      coldStartToFirstScreenshotMs: round(median(cold)),
      warmAcquireToFirstScreenshotMs: round(median(warm)),
      screenshotRoundTripMs1280x800Png: round(median(rtt)),
      liveStreamFps: round(fps),
      goals: { coldMs: 1500, warmMs: 150, roundTripMs: 60, fps: 10 },
      samples: { cold: cold.map(round), warm: warm.map(round) },
      machine: { ...benchMachine(), docker: engineAddress(driver.docker) },
    };
  } finally {
    await driver.close();
  }
}

/** Registers `agent-desk bench sandbox` on the bench command. */
export function registerBenchSandbox(bench: Command): void {
  bench
    .command('sandbox')
    .description('desktop sandbox: cold start, warm acquire, screenshot round trip, live fps')
    .option('--runs <n>', 'timed runs for cold and warm (the median is reported)', '5')
    .option('--stream-seconds <n>', 'how long to measure the live stream', '5')
    .option('--runtime <name>', 'OCI runtime of the desktops: runc, or runsc (gVisor, registered on the engine)', 'runc')
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { runs: string; streamSeconds: string; runtime: string; json?: boolean }) => {
      try {
        const figures = await benchSandbox(Number(opts.runs), Number(opts.streamSeconds), parseBenchRuntime(opts.runtime));
        if (opts.json) printJson(figures);
        else console.log(JSON.stringify(figures));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
