import type { CronJob, CronRun, ServerText } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
import type { SqlSession } from './sql/sqlPort.js';

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

const jobParams = (j: CronJob) => [
  j.id,
  j.name,
  j.schedule,
  j.timezone,
  toJson(j.target),
  j.agentId ?? null,
  j.overlap,
  j.missed,
  j.budget === undefined ? null : toJson(j.budget),
  j.enabled ? 1 : 0,
  j.status,
  j.blockedReason ?? null,
  j.nextRunAt ?? null,
  j.lastRunAt ?? null,
  j.createdAt,
  j.updatedAt,
];

/** Cron jobs and the record of each fire time. */
export class CronRepo {
  constructor(private readonly db: SqlSession) {}

  /** Writes a job row (insert or full replace). */
  async save(job: CronJob): Promise<void> {
    await this.db.run(
      // An upsert, not INSERT OR REPLACE: a replace deletes the row, and the cascade its runs.
      `INSERT INTO cron_jobs (id, name, schedule, timezone, target, agent_id, overlap, missed, budget, enabled, status,
         blocked_reason, next_run_at, last_run_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, schedule = excluded.schedule, timezone = excluded.timezone,
         target = excluded.target, agent_id = excluded.agent_id, overlap = excluded.overlap, missed = excluded.missed,
         budget = excluded.budget, enabled = excluded.enabled, status = excluded.status, blocked_reason = excluded.blocked_reason,
         next_run_at = excluded.next_run_at, last_run_at = excluded.last_run_at, updated_at = excluded.updated_at`,
      jobParams(job),
    );
  }

  async get(id: string): Promise<CronJob | undefined> {
    const row = await this.db.get<JobRow>('SELECT * FROM cron_jobs WHERE id = ?', [id]);
    return row && toJob(row);
  }

  /** The job, its row locked until the transaction ends (PostgreSQL; SQLite's write transaction holds the file). */
  async getForUpdate(id: string): Promise<CronJob | undefined> {
    const lock = this.db.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const row = await this.db.get<JobRow>(`SELECT * FROM cron_jobs WHERE id = ?${lock}`, [id]);
    return row && toJob(row);
  }

  async list(): Promise<CronJob[]> {
    return (await this.db.all<JobRow>('SELECT * FROM cron_jobs ORDER BY created_at, id')).map(toJob);
  }

  /** Active, enabled jobs whose next fire time is at or before `nowIso`. */
  async due(nowIso: string): Promise<CronJob[]> {
    const sql = "SELECT * FROM cron_jobs WHERE status = 'active' AND enabled = 1 AND next_run_at <= ? ORDER BY next_run_at, id";
    return (await this.db.all<JobRow>(sql, [nowIso])).map(toJob);
  }

  /** The earliest next fire time of any active job, if any. */
  async earliestDue(): Promise<string | undefined> {
    const row = await this.db.get<{ at: string | null }>(
      "SELECT MIN(next_run_at) AS at FROM cron_jobs WHERE status = 'active' AND enabled = 1",
    );
    return row?.at ?? undefined;
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM cron_jobs WHERE id = ?', [id])).changes > 0;
  }

  /** Records a run; false when that scheduled fire time was already recorded (never fire twice). */
  async addRun(run: CronRun): Promise<boolean> {
    const result = await this.db.run(
      `INSERT INTO cron_runs (id, job_id, scheduled_for, fired_at, trigger, outcome, task_id, reason, reason_text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        run.id,
        run.jobId,
        run.scheduledFor,
        run.firedAt,
        run.trigger,
        run.outcome,
        run.taskId ?? null,
        run.reason ?? null,
        run.reasonText ? toJson(run.reasonText) : null,
      ],
    );
    return result.changes > 0;
  }

  /** Sets what a claimed fire time came to (its outcome, task and reason). */
  async settleRun(run: CronRun): Promise<void> {
    await this.db.run('UPDATE cron_runs SET outcome = ?, task_id = ?, reason = ?, reason_text = ? WHERE id = ?', [
      run.outcome,
      run.taskId ?? null,
      run.reason ?? null,
      run.reasonText ? toJson(run.reasonText) : null,
      run.id,
    ]);
  }

  /** A job's runs, newest first. */
  async runs(jobId: string, limit: number): Promise<CronRun[]> {
    const sql = 'SELECT * FROM cron_runs WHERE job_id = ? ORDER BY fired_at DESC, id DESC LIMIT ?';
    return (await this.db.all<RunRow>(sql, [jobId, limit])).map(toRun);
  }

  /** Task ids of a job's runs that created a task, newest first. */
  async taskIds(jobId: string, limit = 20): Promise<string[]> {
    const sql = 'SELECT task_id FROM cron_runs WHERE job_id = ? AND task_id IS NOT NULL ORDER BY fired_at DESC, id DESC LIMIT ?';
    return (await this.db.all<{ task_id: string }>(sql, [jobId, limit])).map((r) => r.task_id);
  }
}
