import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventFrame } from '../../../../electron/contract/index.js';
import { systemClock } from '../../../../electron/runtime/clock.js';
import { createEventBus } from '../../../../electron/runtime/gateway/eventBus.js';
import { storeWatchModule } from '../../../../electron/runtime/gateway/storeWatch.js';
import type { RuntimeModule } from '../../../../electron/runtime/core/runtimeModule.js';
import { aTask } from './gatewayFixtures.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store whose every `PRAGMA data_version` takes `readMs` and reports a commit by another connection. */
function slowStore(dialect: 'sqlite' | 'postgres', readMs: number) {
  const seen = { reads: 0, inFlight: 0, mostAtOnce: 0, changedSince: 0 };
  let version = 0;
  const later = Date.now() + 60_000;
  const store = {
    dialect,
    sql: {
      get: async () => {
        seen.reads++;
        seen.inFlight++;
        seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.inFlight);
        await sleep(readMs);
        seen.inFlight--;
        return { data_version: ++version };
      },
    },
    tasks: {
      // A newer stamp at each look, so each is news.
      changedSince: async () => (seen.changedSince++, [{ id: 't1', at: new Date(later + version).toISOString() }]),
      get: async () => aTask(),
    },
    approvals: { changedSince: async () => [] },
  };
  return { store, seen };
}

function watchOver(store: unknown, intervalMs: number) {
  const bus = createEventBus();
  const news: EventFrame[] = [];
  bus.on({}, (frame) => news.push(frame), { elsewhere: true });
  const core = { store, bus, approvals: { get: async () => undefined }, clock: systemClock, engine: { isRunningHere: () => false } };
  return { module: storeWatchModule(core as never, { intervalMs }), news };
}

let running: RuntimeModule | undefined;
afterEach(async () => {
  await running?.stop?.();
  running = undefined;
});

describe('store watch', () => {
  it('never runs two looks at once, however slow the store, and a stop waits for the look in flight', async () => {
    const warnings = vi.spyOn(process, 'emitWarning');
    const { store, seen } = slowStore('sqlite', 30);
    const { module, news } = watchOver(store, 1);
    running = module;
    module.start?.();
    await vi.waitFor(() => expect(seen.reads).toBeGreaterThanOrEqual(5), { timeout: 5000 });
    expect(seen.mostAtOnce).toBe(1);
    expect(news.filter((f) => f.event === 'task.updated').length).toBeGreaterThan(0); // each look found news
    await module.stop?.();
    expect(seen.inFlight).toBe(0);
    const after = seen.reads;
    await sleep(100);
    expect(seen.reads).toBe(after); // nothing runs once stopped
    expect(warnings).not.toHaveBeenCalled();
    warnings.mockRestore();
  });

  it('on PostgreSQL (no data_version there) every tick looks for changed rows, and finds the news', async () => {
    const { store, seen } = slowStore('postgres', 0);
    const { module, news } = watchOver(store, 1);
    running = module;
    module.start?.();
    await vi.waitFor(() => expect(seen.changedSince).toBeGreaterThanOrEqual(3), { timeout: 5000 });
    expect(seen.reads).toBe(0); // no PRAGMA sent to PostgreSQL
    expect(news.some((f) => f.event === 'task.updated')).toBe(true);
  });
});
