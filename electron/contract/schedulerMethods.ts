import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';
import { patchOf } from './patch.js';
import { CronJobSchema, CronJobSpecSchema, CronRunSchema } from './schedule.js';
import { TaskStateSchema } from './task.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;
const JobRef = z.object({ jobId: z.string().min(1).max(100) }).strict();

/** A run record with the current state of its task, if any. */
export const CronRunViewSchema = CronRunSchema.extend({ taskState: TaskStateSchema.optional() });

/** Scheduler methods: cron jobs and their runs. */
export const SchedulerMethods = {
  'cron.add': spec({
    params: CronJobSpecSchema,
    result: CronJobSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Add a cron job that creates a task from a playbook or a goal on schedule.',
  }),
  'cron.list': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ jobs: z.array(CronJobSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Every cron job with its status and next fire time.',
  }),
  'cron.update': spec({
    params: JobRef.extend({ patch: patchOf(CronJobSpecSchema) }).strict(),
    result: CronJobSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Change a job; a blocked job is re-validated and unblocked when its configuration is fixed.',
  }),
  'cron.remove': spec({
    params: JobRef,
    result: z.object({ removed: z.boolean() }),
    scope: 'operator.write',
    sideEffect: true,
    description: 'Remove a job (its run records go with it; its tasks stay).',
  }),
  'cron.run': spec({
    params: JobRef,
    result: CronRunViewSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Fire a job now (overlap policy applies).',
  }),
  'cron.runs': spec({
    params: JobRef.extend({ limit: z.number().int().min(1).max(500).default(50) }).strict(),
    result: z.object({ runs: z.array(CronRunViewSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'A job’s runs, newest first.',
  }),
} as const;
