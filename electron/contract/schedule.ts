import { z } from 'zod';
import { AcceptanceCheckSchema } from './check.js';
import { ServerTextSchema } from './serverText.js';
import { BudgetLimitsSchema } from './task.js';

/** What a cron job starts: a playbook (inline YAML or a file read at fire time) or a goal. */
export const CronTargetSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('playbook'),
      /** Inline playbook YAML. */
      source: z.string().min(1).max(1_000_000).optional(),
      /** A playbook file, read each time the job fires (a missing or broken file blocks the job). */
      path: z.string().min(1).max(4096).optional(),
      /** Folder relative paths in the playbook resolve against (default: the file's folder). */
      baseDir: z.string().optional(),
      inputs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    })
    .strict()
    .refine((t) => (t.source === undefined) !== (t.path === undefined), { message: 'give exactly one of source or path' }),
  z
    .object({
      kind: z.literal('goal'),
      goal: z.string().min(1).max(20_000),
      /** The checks that decide each run succeeded; without them every run waits for a person to review proposed checks. */
      checks: z.array(AcceptanceCheckSchema).max(50).optional(),
      /** Provider model for its runs (absent: the job's agent's model, then the config default). */
      model: z.string().min(1).max(200).optional(),
    })
    .strict(),
]);
/** A cron job's target. */
export type CronTarget = z.infer<typeof CronTargetSchema>;

/** What happens when a job fires while its previous task is still active. */
export const OverlapPolicySchema = z.enum(['skip', 'queue']);
/** What happens to fire times that passed while the runtime was down. */
export const MissedPolicySchema = z.enum(['skip', 'run_once']);

/** active: fires on schedule; paused: kept but never fires; blocked: its configuration is broken (see blockedReason). */
export const CronJobStatusSchema = z.enum(['active', 'paused', 'blocked']);

/** The editable part of a cron job. */
export const CronJobSpecSchema = z
  .object({
    name: z.string().min(1).max(200),
    /** A cron expression (5–7 fields, croner syntax), e.g. `0 9 * * 1-5`. */
    schedule: z.string().min(1).max(200),
    /** IANA time zone the expression is read in. */
    timezone: z.string().min(1).max(100).default('UTC'),
    target: CronTargetSchema,
    /** The agent the tasks run as (its concurrency limit applies). */
    agentId: z.string().min(1).max(100).optional(),
    overlap: OverlapPolicySchema.default('skip'),
    missed: MissedPolicySchema.default('skip'),
    budget: BudgetLimitsSchema.optional(),
    enabled: z.boolean().default(true),
  })
  .strict();
/** A cron job's editable fields. */
export type CronJobSpec = z.infer<typeof CronJobSpecSchema>;

/** A persisted cron job. */
export const CronJobSchema = CronJobSpecSchema.extend({
  id: z.string(),
  status: CronJobStatusSchema,
  blockedReason: z.string().optional(),
  /** The next fire time (ISO), absent when paused or blocked. */
  nextRunAt: z.string().optional(),
  lastRunAt: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** A cron job. */
export type CronJob = z.infer<typeof CronJobSchema>;

/**
 * started/queued: a task was created; skipped_overlap: the previous task was still active;
 * skipped_missed: the fire time passed while the runtime was down; blocked: the configuration is broken.
 */
export const CronRunOutcomeSchema = z.enum(['queued', 'skipped_overlap', 'skipped_missed', 'blocked']);
/** How one fire time was handled. */
export type CronRunOutcome = z.infer<typeof CronRunOutcomeSchema>;

/** One fire time of a job and what became of it. */
export const CronRunSchema = z.object({
  id: z.string(),
  jobId: z.string(),
  /** The fire time the schedule gave (ISO). */
  scheduledFor: z.string(),
  /** When the scheduler handled it (ISO). */
  firedAt: z.string(),
  /** manual: `cron.run`; schedule: a fire time; catch_up: a missed fire time run once after downtime. */
  trigger: z.enum(['schedule', 'manual', 'catch_up']),
  outcome: CronRunOutcomeSchema,
  taskId: z.string().optional(),
  reason: z.string().optional(),
  /** `reason` as a catalog code (absent on runs recorded before codes). */
  reasonText: ServerTextSchema.optional(),
});
/** A cron run record. */
export type CronRun = z.infer<typeof CronRunSchema>;
