import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';

/** SQLite: how long after one look ends the store is asked again whether another connection committed. */
const DEFAULT_INTERVAL_MS = 200;
/** PostgreSQL: notices carry the news; a full look this often only catches what a lost listener missed. */
const NOTICED_INTERVAL_MS = 5_000;
/** The channel migration 12's triggers send `task:<id>` and `approval:<id>` on. */
export const CHANGE_CHANNEL = 'agent_desk_changes';
/** Waits before listening again after the listener's connection was lost: doubling, at most the last. */
const RELISTEN_MS = [250, 500, 1000, 2000, 5000, 10_000];
/**
 * How far back each look reaches behind the newest change seen: a writer stamps a row when it
 * writes it and may commit a few milliseconds later (its commit queue), after a newer row.
 */
const LOOK_BACK_MS = 5000;

type WatchCore = Pick<RuntimeCore, 'store' | 'bus' | 'approvals' | 'clock'> & {
  engine: Pick<RuntimeCore['engine'], 'isRunningHere' | 'ranHereWithin'>;
};

/**
 * A notice about a task whose run here ended this recently is its own final writes (the run told
 * of them): not read again. A change by another process in that window still comes with the next
 * slow look, which compares every changed row's time.
 */
const OWN_NEWS_MS = 2_000;

/** What an approval's news is told by: its status and how many have voted. */
const approvalKey = (status: string, votes: number): string => `${status}:${votes}`;
const counted = (votes: readonly { counted: boolean }[] | undefined): number => votes?.filter((v) => v.counted).length ?? 0;

/**
 * News of other processes writing the same store (a CLI `run` beside `serve`, a worker, a second
 * gateway): tasks and approvals they changed are published as `elsewhere` events, which only a
 * person's views receive (the web UI, the desktop window), and a decision made elsewhere wakes
 * this process's runner waiting on it. On SQLite each look asks one pragma; on PostgreSQL the
 * rows' ids arrive by LISTEN/NOTIFY and a slow look covers a lost listener. See
 * docs/architecture.md, "The store".
 */
export function storeWatchModule(core: WatchCore, options: { intervalMs?: number } = {}): RuntimeModule {
  const watch = new StoreWatch(core);
  const listens = core.store.sql.listen !== undefined;
  const intervalMs = options.intervalMs ?? (listens ? NOTICED_INTERVAL_MS : DEFAULT_INTERVAL_MS);
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
  const listener = listens ? new NoticeListener(core, watch) : undefined;
  const stop = async () => {
    stopped = true;
    clearTimeout(timer);
    await listener?.stop();
    await looking; // a look in flight ends before the store closes
    watch.end();
  };
  const start = () => {
    run(async () => {
      await watch.begin();
      await listener?.start();
    });
  };
  return { name: 'store watch', start, close: stop, stop };
}

/** Hears the ids of changed rows on PostgreSQL; listens again with backoff when its connection is lost, then looks once. */
class NoticeListener {
  private unlisten: (() => Promise<void>) | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  private attempt = 0;
  private told = false;

  constructor(
    private readonly core: WatchCore,
    private readonly watch: StoreWatch,
  ) {}

  async start(): Promise<void> {
    try {
      this.unlisten = await this.core.store.sql.listen!(CHANGE_CHANNEL, {
        notice: (payload) => this.watch.noticed(payload),
        lost: (error) => this.lost(error),
      });
      if (this.told) process.emitWarning('store watch: listening for changes again');
      this.attempt = 0;
      this.told = false;
    } catch (error) {
      this.lost(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.unlisten?.();
  }

  private lost(error: Error): void {
    this.unlisten = undefined;
    if (this.stopped) return;
    if (!this.told) process.emitWarning(`store watch: lost the change listener (${error.message}); listening again`);
    this.told = true;
    const wait = RELISTEN_MS[Math.min(this.attempt++, RELISTEN_MS.length - 1)]!;
    this.retry = setTimeout(() => {
      if (this.stopped) return;
      // What changed while nobody listened comes from one full look.
      void this.start().then(() => this.watch.tick().catch(() => undefined));
    }, wait);
    this.retry.unref();
  }
}

/** What one look at the store found and published. */
export class StoreWatch {
  private version = -1;
  /** Newest stamp seen (ISO text sorts in time order). */
  private newest = '';
  /** Last known stamp of each recent task / status of each recent approval, this process's own included. */
  private readonly tasks = new Map<string, string>();
  private readonly approvals = new Map<string, string>();
  /** Ids noticed and not yet read, and the read in progress (notices that arrive meanwhile wait for the next). */
  private readonly noticedTasks = new Set<string>();
  private readonly noticedApprovals = new Set<string>();
  private reading: Promise<void> | undefined;
  private stopListening: (() => void) | undefined;

  constructor(private readonly core: WatchCore) {}

  /** Starts from now: what is already in the store is not news; this process's own events are noted as seen. */
  async begin(): Promise<void> {
    this.newest = new Date(this.core.clock.now()).toISOString();
    const events = ['task.updated', 'approval.requested', 'approval.updated', 'approval.resolved'] as const;
    this.stopListening ??= this.core.bus.on({ events: [...events] }, (frame) => {
      const data = frame.data as { id: string; updatedAt?: string; status?: string; votes?: { counted: boolean }[] };
      if (frame.event === 'task.updated') this.tasks.set(data.id, data.updatedAt ?? '');
      else this.approvals.set(data.id, approvalKey(data.status ?? '', counted(data.votes)));
    });
    this.version = await this.dataVersion();
  }

  /** Stops noting this process's own events. */
  end(): void {
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /** Publishes what other connections committed since the last look; nothing when none did. */
  async tick(): Promise<void> {
    const version = await this.dataVersion();
    if (version === this.version) return;
    this.version = version;
    const since = new Date(Date.parse(this.newest) - LOOK_BACK_MS).toISOString();
    for (const { id, at } of await this.core.store.tasks.changedSince(since)) {
      if (at > this.newest) this.newest = at;
      if (this.tasks.get(id) !== at) await this.publishTask(id);
    }
    for (const { id, status, votes } of await this.core.store.approvals.changedSince(since)) {
      if (this.approvals.get(id) !== approvalKey(status, Number(votes))) await this.publishApproval(id);
    }
    this.forgetBefore(since);
  }

  /** A notice (`task:<id>`, `approval:<id>`): the row is read and published, unless it is this process's own news. */
  noticed(payload: string): void {
    const colon = payload.indexOf(':');
    const kind = payload.slice(0, colon);
    const id = payload.slice(colon + 1);
    if (kind === 'task') this.noticedTasks.add(id);
    else if (kind === 'approval') this.noticedApprovals.add(id);
    else return;
    this.reading ??= this.readNoticed().finally(() => (this.reading = undefined));
  }

  private async readNoticed(): Promise<void> {
    // A turn of the event loop first: this process's own event about the same commit comes right after it.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.noticedTasks.size + this.noticedApprovals.size > 0) {
        const tasks = [...this.noticedTasks];
        const approvals = [...this.noticedApprovals];
        this.noticedTasks.clear();
        this.noticedApprovals.clear();
        for (const id of tasks) if (!this.core.engine.ranHereWithin(id, OWN_NEWS_MS)) await this.publishTask(id);
        for (const id of approvals) await this.publishApproval(id);
      }
    } catch (error) {
      // The slow look publishes what this read could not.
      process.emitWarning(`store watch: cannot read a changed row: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // Each row is checked again once read: this process's own event about it may have come meanwhile
  // (it follows its commit by a few ticks), and then it is not news.
  private async publishTask(id: string): Promise<void> {
    // A task this process runs is told by its own run (a notice can come before the run's own event);
    // with nobody here taking other processes' task news (a worker), there is nothing to read it for.
    if (this.core.engine.isRunningHere(id) || !this.core.bus.wantsElsewhere('task.updated')) return;
    const task = await this.core.store.tasks.get(id);
    if (!task || this.tasks.get(id) === task.updatedAt) return;
    if (task.updatedAt > this.newest) this.newest = task.updatedAt;
    this.tasks.set(id, task.updatedAt);
    this.core.bus.emit('task.updated', task, 'elsewhere');
  }

  private async publishApproval(id: string): Promise<void> {
    const approval = await this.core.approvals.get(id);
    const key = approval && approvalKey(approval.status, counted(approval.votes));
    if (!approval || this.approvals.get(id) === key) return;
    const before = this.approvals.get(id);
    this.approvals.set(id, key!);
    // A vote on one still waiting (four eyes): the same approval with who has agreed so far.
    if (approval.status === 'pending' && before?.startsWith('pending:'))
      return void this.core.bus.emit('approval.updated', approval, 'elsewhere');
    this.core.bus.emit(approval.status === 'pending' ? 'approval.requested' : 'approval.resolved', approval, 'elsewhere');
    // A runner of this process waiting on it goes on now, not at its next poll.
    if (approval.status !== 'pending') this.core.approvals.wake(id);
  }

  /** Entries older than the look-back window cannot come up again. */
  private forgetBefore(since: string): void {
    for (const [id, at] of this.tasks) if (at < since) this.tasks.delete(id);
    if (this.approvals.size > 10_000) this.approvals.clear();
  }

  /**
   * A number that changes when another connection commits. PostgreSQL has no such counter, so
   * there every (slow) look reads (two indexed reads, migration 10).
   */
  private async dataVersion(): Promise<number> {
    if (this.core.store.dialect !== 'sqlite') return this.version + 1;
    const row = await this.core.store.sql.get<{ data_version: number }>('PRAGMA data_version');
    return row?.data_version ?? this.version;
  }
}
