import type { Command } from 'commander';
import type { CronJobSpec } from '../../contract/index.js';
import { withRuntime } from '../openRuntime.js';
import { parsePairs, printJson, row } from '../output.js';
import { readChecksFile } from './runGoal.js';

interface JobOptions {
  name?: string;
  schedule?: string;
  tz?: string;
  playbook?: string;
  goal?: string;
  checks?: string;
  model?: string;
  input: string[];
  agent?: string;
  overlap?: string;
  missed?: string;
  enable?: boolean;
  json?: boolean;
}

const collect = (v: string, all: string[]) => [...all, v];

/** The job fields given on the command line (the scheduler validates them). */
function specFrom(opts: JobOptions): Partial<CronJobSpec> {
  const inputs = parsePairs(opts.input);
  const target =
    opts.playbook !== undefined
      ? { kind: 'playbook' as const, path: opts.playbook, inputs }
      : opts.goal !== undefined
        ? {
            kind: 'goal' as const,
            goal: opts.goal,
            ...(opts.model !== undefined && { model: opts.model }),
            ...(opts.checks !== undefined && { checks: readChecksFile(opts.checks) }),
          }
        : undefined;
  return {
    ...(opts.name !== undefined && { name: opts.name }),
    ...(opts.schedule !== undefined && { schedule: opts.schedule }),
    ...(opts.tz !== undefined && { timezone: opts.tz }),
    ...(target && { target }),
    ...(opts.agent !== undefined && { agentId: opts.agent }),
    ...(opts.overlap !== undefined && { overlap: opts.overlap as CronJobSpec['overlap'] }),
    ...(opts.missed !== undefined && { missed: opts.missed as CronJobSpec['missed'] }),
    ...(opts.enable !== undefined && { enabled: opts.enable }),
  };
}

function jobOptions(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'job name')
    .option('--schedule <cron>', 'cron expression, e.g. "0 9 * * 1-5"')
    .option('--tz <zone>', 'IANA time zone the expression is read in (default UTC)')
    .option('--playbook <file>', 'playbook file, read each time the job fires')
    .option('--goal <text>', 'a goal for the agent’s planner instead of a playbook')
    .option('--checks <file>', 'goal jobs: acceptance checks (JSON) that decide each run; without them runs wait for review')
    .option('--model <provider:model>', 'goal jobs: the model to plan with')
    .option('-i, --input <key=value>', 'playbook input (repeatable)', collect, [])
    .option('--agent <name>', 'run as this agent')
    .option('--overlap <policy>', 'skip | queue, when the previous run is still active')
    .option('--missed <policy>', 'skip | run_once, for fire times missed while down')
    .option('--json', 'print JSON');
}

/** `agent-desk cron add|list|update|remove|run|runs`. */
export function registerCron(program: Command): void {
  const cron = program.command('cron').description('scheduled jobs that create tasks (run by `agent-desk serve`)');
  jobOptions(cron.command('add')).action((opts: JobOptions) =>
    withRuntime(opts.json, async (rt) => {
      const job = await rt.scheduler.add(specFrom(opts));
      if (opts.json) return printJson(job);
      console.log(`${job.id}  next run ${job.nextRunAt ?? '-'}`);
    }),
  );
  cron
    .command('list')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const jobs = await rt.scheduler.list();
        if (opts.json) return printJson({ jobs });
        for (const j of jobs)
          console.log(
            row([j.id, j.status, j.schedule, j.timezone, j.nextRunAt ?? '-', j.name, j.blockedReason ?? ''], [31, 8, 14, 16, 25, 20, 0]),
          );
      }),
    );
  jobOptions(cron.command('update <jobId>'))
    .option('--enable', 'enable the job')
    .option('--disable', 'disable (pause) the job')
    .action((jobId: string, opts: JobOptions & { disable?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const job = await rt.scheduler.update(jobId, specFrom({ ...opts, ...(opts.disable && { enable: false }) }));
        if (opts.json) return printJson(job);
        console.log(`${job.id}  ${job.status}  next run ${job.nextRunAt ?? '-'}`);
      }),
    );
  cron
    .command('remove <jobId>')
    .option('--json', 'print JSON')
    .action((jobId: string, opts: { json?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const removed = await rt.scheduler.remove(jobId);
        if (opts.json) return printJson({ removed });
        console.log(removed ? `removed ${jobId}` : `no job ${jobId}`);
      }),
    );
  cron
    .command('run <jobId>')
    .description('fire a job now; with --wait, run its task here until it ends or waits')
    .option('--wait', 'run the queued task in this process')
    .option('--json', 'print JSON')
    .action((jobId: string, opts: { wait?: boolean; json?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const scheduler = rt.scheduler;
        let run = await scheduler.runNow(jobId);
        if (opts.wait && run.taskId) {
          scheduler.queue.start();
          await scheduler.queue.drain();
          run = (await scheduler.runs(jobId, 1))[0] ?? run;
        }
        if (opts.json) return printJson(run);
        console.log(
          `${run.outcome}${run.taskId ? ` ${run.taskId}` : ''}${run.taskState ? ` (${run.taskState})` : ''}${run.reason ? `: ${run.reason}` : ''}`,
        );
      }),
    );
  cron
    .command('runs <jobId>')
    .option('--limit <n>', 'how many', '50')
    .option('--json', 'print JSON')
    .action((jobId: string, opts: { limit: string; json?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const runs = await rt.scheduler.runs(jobId, Number(opts.limit));
        if (opts.json) return printJson({ runs });
        for (const r of runs)
          console.log(
            row([r.scheduledFor, r.trigger, r.outcome, r.taskId ?? '-', r.taskState ?? '', r.reason ?? ''], [25, 9, 16, 31, 10, 0]),
          );
      }),
    );
}
