import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { processIsAlive, type RunnerLease } from '../engine/engineDeps.js';
import { WorkerRepo } from '../store/workerRepo.js';
import type { SqlSession } from '../store/sql/sqlPort.js';

/** How long a heartbeat holds a worker's leases; it is renewed three times within. */
export const DEFAULT_LEASE_MS = 15_000;
/** Dead workers are looked for at most this often (each claim asks; a busy worker claims many times a second). */
const REAP_EVERY_MS = 1_000;

export interface WorkerLeaseOptions {
  /** The newest planner-state version this build reads. */
  plannerVersion: number;
  leaseMs?: number;
  pid?: number;
  /** Told when the store said this worker's leases were taken (its heartbeat came too late): stop every run. */
  onLost?: (reason: string) => void;
  /** Told when the heartbeat cannot reach the store, and when it can again. */
  onHealth?: (healthy: boolean, error?: unknown) => void;
}

/**
 * This process as a worker in the store. Leases are wall-clock facts about processes, so they use
 * the real time, not the runtime's clock (which tests move). The row is written on first use:
 * a process that never runs a task (a gateway only reading) never registers.
 */
export class WorkerLease implements RunnerLease {
  private current: string;
  private registered: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private ok = true;
  private closed = false;
  private reapedAt = -Infinity;
  readonly plannerVersion: number;
  private readonly leaseMs: number;
  private readonly pid: number;
  private readonly host = hostKey();
  private readonly repo: WorkerRepo;

  constructor(
    sql: SqlSession,
    private readonly options: WorkerLeaseOptions,
  ) {
    this.repo = new WorkerRepo(sql);
    this.plannerVersion = options.plannerVersion;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pid = options.pid ?? process.pid;
    this.current = newWorkerId(this.pid);
  }

  get id(): string {
    return this.current;
  }

  freshSince(): string {
    return new Date(Date.now() - this.leaseMs).toISOString();
  }

  healthy(): boolean {
    return this.ok;
  }

  async reap(): Promise<void> {
    await this.ensureRegistered();
    if (performance.now() - this.reapedAt < REAP_EVERY_MS) return;
    this.reapedAt = performance.now();
    await this.repo.removeStale(this.freshSince());
    for (const other of await this.repo.onHost(this.host, this.current)) {
      if (other.pid !== this.pid && !processIsAlive(other.pid)) await this.repo.remove(other.id);
    }
  }

  /**
   * This worker's id once its row exists: what a label naming it outside the store (a desktop)
   * must wait for, or another worker looking at it meanwhile finds no such worker and takes it.
   */
  async joined(): Promise<string> {
    await this.ensureRegistered();
    return this.current;
  }

  /** True while worker `id` holds its leases (this one included): a fresh heartbeat, once dead processes on this machine are reaped. */
  async isLive(id: string): Promise<boolean> {
    await this.reap();
    const row = await this.repo.get(id);
    return row !== undefined && row.heartbeatAt >= this.freshSince();
  }

  /** Leaves the store: what this worker still owns is free for the next at once (its steps say where they stopped). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.beating;
    if (this.registered) await this.repo.remove(this.current).catch(() => undefined);
  }

  private ensureRegistered(): Promise<void> {
    // A registration that failed (the store away) is tried again by the next caller.
    this.registered ??= this.register().catch((error: unknown) => {
      this.registered = undefined;
      throw error;
    });
    return this.registered;
  }

  private async register(): Promise<void> {
    const now = new Date().toISOString();
    await this.repo.register({
      id: this.current,
      host: this.host,
      pid: this.pid,
      plannerVersion: this.plannerVersion,
      startedAt: now,
      heartbeatAt: now,
    });
    this.timer ??= setInterval(() => void (this.beating = this.beat()), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    try {
      const renewed = await this.repo.heartbeat(this.current, new Date().toISOString());
      this.health(true);
      if (renewed) return;
      // Another worker found this one stale and took what it held: a new id, and every run here stops.
      const lost = this.current;
      this.current = newWorkerId(this.pid);
      this.registered = undefined;
      this.options.onLost?.(`worker ${lost} lost its leases (its heartbeat was late by more than ${this.leaseMs} ms)`);
      await this.ensureRegistered();
    } catch (error) {
      this.health(false, error);
    }
  }

  private health(ok: boolean, error?: unknown): void {
    if (ok === this.ok) return;
    this.ok = ok;
    this.options.onHealth?.(ok, error);
  }
}

/** A readable, unique owner id: host, pid and a random tail (pids repeat across machines and restarts). */
function newWorkerId(pid: number): string {
  return `${os.hostname()}:${pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * Which processes this one can ask about by pid: the same machine (boot), the same pid namespace
 * (containers have their own) and the same host name.
 */
export function hostKey(): string {
  return [os.hostname(), readOr('/proc/sys/kernel/random/boot_id'), linkOr('/proc/self/ns/pid')].join('|');
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function linkOr(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '';
  }
}
