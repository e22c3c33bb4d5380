import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';

/** How often the store is asked whether another connection committed (`PRAGMA data_version`). */
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
 * views receive (the web UI, the desktop window). Cheap when nothing happens: one pragma a tick.
 * See docs/architecture.md, "The store".
 */
export function storeWatchModule(core: WatchCore, options: { intervalMs?: number } = {}): RuntimeModule {
  const watch = new StoreWatch(core);
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'store watch',
    start() {
      watch.begin();
      timer = setInterval(() => watch.tick(), options.intervalMs ?? DEFAULT_INTERVAL_MS);
      timer.unref();
    },
    close: () => clearInterval(timer),
    stop: () => clearInterval(timer),
  };
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
  begin(): void {
    this.version = this.dataVersion();
    this.newest = new Date(this.core.clock.now()).toISOString();
    this.core.bus.on({ events: ['task.updated', 'approval.requested', 'approval.resolved'] }, (frame) => {
      const data = frame.data as { id: string; updatedAt?: string; status?: string };
      if (frame.event === 'task.updated') this.tasks.set(data.id, data.updatedAt ?? '');
      else this.approvals.set(data.id, data.status ?? '');
    });
  }

  /** Publishes what other connections committed since the last look; nothing when none did. */
  tick(): void {
    const version = this.dataVersion();
    if (version === this.version) return;
    this.version = version;
    const since = new Date(Date.parse(this.newest) - LOOK_BACK_MS).toISOString();
    this.publishTasks(since);
    this.publishApprovals(since);
    this.forgetBefore(since);
  }

  private publishTasks(since: string): void {
    const rows = this.core.store.db
      .prepare('SELECT id, updated_at AS at FROM tasks WHERE updated_at >= ? ORDER BY updated_at')
      .all(since) as {
      id: string;
      at: string;
    }[];
    for (const { id, at } of rows) {
      if (at > this.newest) this.newest = at;
      if (this.tasks.get(id) === at) continue;
      this.tasks.set(id, at);
      const task = this.core.store.tasks.get(id);
      if (task) this.core.bus.emit('task.updated', task, 'elsewhere');
    }
  }

  private publishApprovals(since: string): void {
    const rows = this.core.store.db
      .prepare('SELECT id, status FROM approvals WHERE created_at >= ? OR decided_at >= ?')
      .all(since, since) as { id: string; status: string }[];
    for (const { id, status } of rows) {
      if (this.approvals.get(id) === status) continue;
      this.approvals.set(id, status);
      const approval = this.core.approvals.get(id);
      if (!approval) continue;
      this.core.bus.emit(status === 'pending' ? 'approval.requested' : 'approval.resolved', approval, 'elsewhere');
    }
  }

  /** Entries older than the look-back window cannot come up again. */
  private forgetBefore(since: string): void {
    for (const [id, at] of this.tasks) if (at < since) this.tasks.delete(id);
    if (this.approvals.size > 10_000) this.approvals.clear();
  }

  private dataVersion(): number {
    return this.core.store.db.pragma('data_version', { simple: true }) as number;
  }
}
