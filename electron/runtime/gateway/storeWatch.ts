import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';

/** How long after one look ends the store is asked again whether another connection committed. */
const DEFAULT_INTERVAL_MS = 200;
/**
 * How far back each look reaches behind the newest change seen: a writer stamps a row when it
 * writes it and may commit a few milliseconds later (its commit queue), after a newer row.
 */
const LOOK_BACK_MS = 5000;

type WatchCore = Pick<RuntimeCore, 'store' | 'bus' | 'approvals' | 'clock'>;

/**
 * News of other processes writing the same store (a CLI `run` beside `serve`, a second gateway):
 * tasks and approvals they changed are published as `elsewhere` events, which only a person's
 * views receive (the web UI, the desktop window). Cheap when nothing happens: one pragma a look.
 * See docs/architecture.md, "The store".
 */
export function storeWatchModule(core: WatchCore, options: { intervalMs?: number } = {}): RuntimeModule {
  const watch = new StoreWatch(core);
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> = Promise.resolve();
  let stopped = false;
  let failing = false;
  // The timer is armed again only once a look has finished, so two looks never overlap however slow the store is.
  const run = (look: () => Promise<void>) => {
    looking = look()
      .then(() => void (failing = false))
      .catch((error: unknown) => {
        // Said once per run of failures, not every interval; the watch goes on (the store may come back).
        if (!failing) process.emitWarning(`store watch: cannot read the store: ${error instanceof Error ? error.message : String(error)}`);
        failing = true;
      })
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(() => run(() => watch.tick()), intervalMs);
        timer.unref();
      });
  };
  const stop = async () => {
    stopped = true;
    clearTimeout(timer);
    await looking; // a look in flight ends before the store closes
  };
  return { name: 'store watch', start: () => run(() => watch.begin()), close: stop, stop };
}

/** What one look at the store found and published. */
export class StoreWatch {
  private version = -1;
  /** Newest stamp seen (ISO text sorts in time order). */
  private newest = '';
  /** Last known stamp of each recent task / status of each recent approval, this process's own included. */
  private readonly tasks = new Map<string, string>();
  private readonly approvals = new Map<string, string>();

  constructor(private readonly core: WatchCore) {}

  /** Starts from now: what is already in the store is not news; this process's own events are noted as seen. */
  async begin(): Promise<void> {
    this.newest = new Date(this.core.clock.now()).toISOString();
    this.core.bus.on({ events: ['task.updated', 'approval.requested', 'approval.resolved'] }, (frame) => {
      const data = frame.data as { id: string; updatedAt?: string; status?: string };
      if (frame.event === 'task.updated') this.tasks.set(data.id, data.updatedAt ?? '');
      else this.approvals.set(data.id, data.status ?? '');
    });
    this.version = await this.dataVersion();
  }

  /** Publishes what other connections committed since the last look; nothing when none did. */
  async tick(): Promise<void> {
    const version = await this.dataVersion();
    if (version === this.version) return;
    this.version = version;
    const since = new Date(Date.parse(this.newest) - LOOK_BACK_MS).toISOString();
    await this.publishTasks(since);
    await this.publishApprovals(since);
    this.forgetBefore(since);
  }

  // Each row is checked again once read: this process's own event about it may have come meanwhile
  // (it follows its commit by a few ticks), and then it is not news.
  private async publishTasks(since: string): Promise<void> {
    for (const { id, at } of await this.core.store.tasks.changedSince(since)) {
      if (at > this.newest) this.newest = at;
      if (this.tasks.get(id) === at) continue;
      const task = await this.core.store.tasks.get(id);
      if (!task || this.tasks.get(id) === task.updatedAt) continue;
      this.tasks.set(id, task.updatedAt);
      this.core.bus.emit('task.updated', task, 'elsewhere');
    }
  }

  private async publishApprovals(since: string): Promise<void> {
    for (const { id, status } of await this.core.store.approvals.changedSince(since)) {
      if (this.approvals.get(id) === status) continue;
      const approval = await this.core.approvals.get(id);
      if (!approval || this.approvals.get(id) === approval.status) continue;
      this.approvals.set(id, approval.status);
      this.core.bus.emit(approval.status === 'pending' ? 'approval.requested' : 'approval.resolved', approval, 'elsewhere');
    }
  }

  /** Entries older than the look-back window cannot come up again. */
  private forgetBefore(since: string): void {
    for (const [id, at] of this.tasks) if (at < since) this.tasks.delete(id);
    if (this.approvals.size > 10_000) this.approvals.clear();
  }

  /**
   * A number that changes when another connection commits. PostgreSQL has no such counter, so
   * there every tick looks (two indexed reads, migration 10) until LISTEN/NOTIFY carries the news.
   */
  private async dataVersion(): Promise<number> {
    if (this.core.store.dialect !== 'sqlite') return this.version + 1;
    const row = await this.core.store.sql.get<{ data_version: number }>('PRAGMA data_version');
    return row?.data_version ?? this.version;
  }
}
