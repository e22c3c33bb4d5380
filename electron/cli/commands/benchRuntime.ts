import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openRuntime, type OpenRuntimeOptions, type ProductRuntime } from '../../capabilities/composition/openRuntime.js';
import type { AnyTool } from '../../runtime/tools/types.js';

/** A bench's runtime: the product's own assembly over a fresh data folder, removed by `dispose`. */
export interface BenchRuntime {
  rt: ProductRuntime;
  home: string;
  dispose(): Promise<void>;
}

/**
 * Opens the runtime the product ships (`openRuntime('full')`) in a temp data folder: `config` is
 * written to its config.json as a user would; `tools` join as a bench module; `model` plans goal tasks.
 */
export async function openBenchRuntime(
  prefix: string,
  opts: { config?: Record<string, unknown>; tools?: readonly AnyTool[] } & Pick<OpenRuntimeOptions, 'model' | 'core' | 'watchStore'> = {},
): Promise<BenchRuntime> {
  const home = mkdtempSync(path.join(os.tmpdir(), `agent-desk-bench-${prefix}-`));
  if (opts.config) writeFileSync(path.join(home, 'config.json'), JSON.stringify(opts.config, null, 2));
  const tools = opts.tools;
  const rt = await openRuntime('full', {
    home,
    ...(tools && { modules: () => [{ name: 'bench', tools }] }),
    ...(opts.model && { model: opts.model }),
    ...(opts.core && { core: opts.core }),
    ...(opts.watchStore && { watchStore: true }),
  });
  return {
    rt,
    home,
    async dispose() {
      await rt.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The machine a figure was measured on, as every bench reports it. */
export function benchMachine(): { cpus: number; cpu: string; node: string; platform: string; load: number[] } {
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    load: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}
