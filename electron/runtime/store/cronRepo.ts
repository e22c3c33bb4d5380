import type Database from 'better-sqlite3';
import type { CronJob, CronRun, ServerText } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';

interface JobRow {
  id: string;
  name: string;
  schedule: string;
  timezone: string;
  target: string;
  agent_id: string | null;
  overlap: CronJob['overlap'];
  missed: CronJob['missed'];
  budget: string | null;
  enabled: number;
  status: CronJob['status'];
  blocked_reason: string | null;
  next_run_at: string | null;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

interface RunRow {
  id: string;
  job_id: string;
  scheduled_for: string;
  fired_at: string;
  trigger: CronRun['trigger'];
  outcome: CronRun['outcome'];
  task_id: string | null;
  reason: string | null;
  reason_text: string | null;
}

function toJob(r: JobRow): CronJob {
  return {
    id: r.id,
    name: r.name,
    schedule: r.schedule,
    timezone: r.timezone,
    target: JSON.parse(r.target),
    ...(r.agent_id !== null && { agentId: r.agent_id }),
    overlap: r.overlap,
    missed: r.missed,
    ...(r.budget !== null && { budget: JSON.parse(r.budget) }),
    enabled: r.enabled === 1,
    status: r.status,
    ...(r.blocked_reason !== null && { blockedReason: r.blocked_reason }),
    ...(r.next_run_at !== null && { nextRunAt: r.next_run_at }),
    ...(r.last_run_at !== null && { lastRunAt: r.last_run_at }),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toRun(r: RunRow): CronRun {
  return {
    id: r.id,
    jobId: r.job_id,
    scheduledFor: r.scheduled_for,
    firedAt: r.fired_at,
    trigger: r.trigger,
    outcome: r.outcome,
    ...(r.task_id !== null && { taskId: r.task_id }),
    ...(r.reason !== null && { reason: r.reason }),
    ...(r.reason_text !== null && { reasonText: JSON.parse(r.reason_text) as ServerText }),
  };
}

const jobParams = (j: CronJob) => ({
  id: j.id,
  name: j.name,
  schedule: j.schedule,
  timezone: j.timezone,
  target: toJson(j.target),
  agentId: j.agentId ?? null,
  overlap: j.overlap,
  missed: j.missed,
  budget: j.budget === undefined ? null : toJson(j.budget),
  enabled: j.enabled ? 1 : 0,
  status: j.status,
  blockedReason: j.blockedReason ?? null,
  nextRunAt: j.nextRunAt ?? null,
  lastRunAt: j.lastRunAt ?? null,
  createdAt: j.createdAt,
  updatedAt: j.updatedAt,
});

/** Cron jobs and the record of each fire time. */
export class CronRepo {
  constructor(private readonly db: Database.Database) {}

  /** Writes a job row (insert or full replace). */
  save(job: CronJob): void {
    this.db
      .prepare(
        // An upsert, not INSERT OR REPLACE: a replace deletes the row, and the cascade its runs.
        `INSERT INTO cron_jobs (id, name, schedule, timezone, target, agent_id, overlap, missed, budget, enabled, status,
           blocked_reason, next_run_at, last_run_at, created_at, updated_at)
         VALUES (@id, @name, @schedule, @timezone, @target, @agentId, @overlap, @missed, @budget, @enabled, @status,
           @blockedReason, @nextRunAt, @lastRunAt, @createdAt, @updatedAt)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, schedule = excluded.schedule, timezone = excluded.timezone,
           target = excluded.target, agent_id = excluded.agent_id, overlap = excluded.overlap, missed = excluded.missed,
           budget = excluded.budget, enabled = excluded.enabled, status = excluded.status, blocked_reason = excluded.blocked_reason,
           next_run_at = excluded.next_run_at, last_run_at = excluded.last_run_at, updated_at = excluded.updated_at`,
      )
      .run(jobParams(job));
  }

  get(id: string): CronJob | undefined {
    const row = this.db.prepare('SELECT * FROM cron_jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row && toJob(row);
  }

  list(): CronJob[] {
    return (this.db.prepare('SELECT * FROM cron_jobs ORDER BY created_at, id').all() as JobRow[]).map(toJob);
  }

  /** Active, enabled jobs whose next fire time is at or before `nowIso`. */
  due(nowIso: string): CronJob[] {
    const sql = "SELECT * FROM cron_jobs WHERE status = 'active' AND enabled = 1 AND next_run_at <= ? ORDER BY next_run_at, id";
    return (this.db.prepare(sql).all(nowIso) as JobRow[]).map(toJob);
  }

  /** The earliest next fire time of any active job, if any. */
  earliestDue(): string | undefined {
    const row = this.db.prepare("SELECT MIN(next_run_at) AS at FROM cron_jobs WHERE status = 'active' AND enabled = 1").get() as {
      at: string | null;
    };
    return row.at ?? undefined;
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM cron_jobs WHERE id = ?').run(id).changes > 0;
  }

  /** Records a run; false when that scheduled fire time was already recorded (never fire twice). */
  addRun(run: CronRun): boolean {
    const result = this.db
      .prepare(
        `INSERT OR IGNORE INTO cron_runs (id, job_id, scheduled_for, fired_at, trigger, outcome, task_id, reason, reason_text)
         VALUES (@id, @jobId, @scheduledFor, @firedAt, @trigger, @outcome, @taskId, @reason, @reasonText)`,
      )
      .run({ ...run, taskId: run.taskId ?? null, reason: run.reason ?? null, reasonText: run.reasonText ? toJson(run.reasonText) : null });
    return result.changes > 0;
  }

  /** Sets what a claimed fire time came to (its outcome, task and reason). */
  settleRun(run: CronRun): void {
    this.db
      .prepare('UPDATE cron_runs SET outcome = ?, task_id = ?, reason = ?, reason_text = ? WHERE id = ?')
      .run(run.outcome, run.taskId ?? null, run.reason ?? null, run.reasonText ? toJson(run.reasonText) : null, run.id);
  }

  /** A job's runs, newest first. */
  runs(jobId: string, limit: number): CronRun[] {
    const sql = 'SELECT * FROM cron_runs WHERE job_id = ? ORDER BY fired_at DESC, rowid DESC LIMIT ?';
    return (this.db.prepare(sql).all(jobId, limit) as RunRow[]).map(toRun);
  }

  /** Task ids of a job's runs that created a task, newest first. */
  taskIds(jobId: string, limit = 20): string[] {
    const sql = 'SELECT task_id FROM cron_runs WHERE job_id = ? AND task_id IS NOT NULL ORDER BY fired_at DESC, rowid DESC LIMIT ?';
    return (this.db.prepare(sql).all(jobId, limit) as { task_id: string }[]).map((r) => r.task_id);
  }
}
