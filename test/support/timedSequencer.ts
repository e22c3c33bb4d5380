import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import type { FileTime } from './timeReport.js';

/**
 * Where each file's time in a measured run is kept (committed), so a fresh clone plans its order
 * from measurements. Refresh it with `AGENT_DESK_TEST_TIMES=test/support/fileTimes.json npm test`.
 */
export const FILE_TIMES = path.join(import.meta.dirname, 'fileTimes.json');

/** A test file that calls this holds the heavy slot (test/support/heavySlot.ts). */
export const HEAVY_CALL = 'useHeavySlot()';

export function readFileTimes(file = FILE_TIMES): Map<string, number> {
  if (!existsSync(file)) return new Map();
  const { files } = JSON.parse(readFileSync(file, 'utf8')) as { files: FileTime[] };
  return new Map(files.map((f) => [f.file, f.ms]));
}

/** A file to place: its measured (or guessed) time, and whether it takes the heavy slot. */
export interface Planned<T> {
  item: T;
  ms: number;
  heavy: boolean;
}

/**
 * The order to hand files to `workers` workers that take the next file as they free up: each
 * free worker gets the longest heavy file when no heavy file runs (they hold one slot), else the
 * longest light one, else the next heavy one (it will wait for the slot). Simulated on the
 * measured times, so the heavy files run back to back on one worker while the rest fill the others.
 */
export function planOrder<T>(files: readonly Planned<T>[], workers: number): T[] {
  const byTime = (a: Planned<T>, b: Planned<T>) => b.ms - a.ms;
  const heavy = files.filter((f) => f.heavy).sort(byTime);
  const light = files.filter((f) => !f.heavy).sort(byTime);
  const free = Array.from({ length: Math.max(1, workers) }, () => 0);
  let heavyUntil = 0;
  const order: T[] = [];
  while (heavy.length + light.length > 0) {
    const w = free.indexOf(Math.min(...free));
    const now = free[w]!;
    let next: Planned<T>;
    if (heavy.length > 0 && (heavyUntil <= now || light.length === 0)) {
      next = heavy.shift()!;
      heavyUntil = Math.max(now, heavyUntil) + next.ms;
      free[w] = heavyUntil;
    } else {
      next = light.shift()!;
      free[w] = now + next.ms;
    }
    order.push(next.item);
  }
  return order;
}

/**
 * Projects in their group order; within one, the order `planOrder` gives for its number of
 * workers. A file never measured counts as the mean of its project's (vitest's own order needs a
 * cache a fresh clone does not have).
 */
export default class TimedSequencer extends BaseSequencer {
  private readonly times = readFileTimes();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const groups = new Map<number, TestSpecification[]>();
    for (const spec of files) {
      const order = spec.project.config.sequence.groupOrder;
      groups.set(order, [...(groups.get(order) ?? []), spec]);
    }
    return [...groups.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, specs]) => {
        const known = specs.map((s) => this.times.get(path.relative(root, s.moduleId))).filter((ms) => ms !== undefined);
        const guess = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1_000;
        const planned = specs.map((item) => ({
          item,
          ms: this.times.get(path.relative(root, item.moduleId)) ?? guess,
          heavy: readFileSync(item.moduleId, 'utf8').includes(HEAVY_CALL),
        }));
        return planOrder(planned, specs[0]!.project.config.maxWorkers);
      });
  }
}
