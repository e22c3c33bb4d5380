import type { Command } from 'commander';
import { TaskStateSchema, type TaskEventKind, type TaskState } from '../../contract/index.js';
import { USER_STEP_INDEX_BASE } from '../../runtime/engine/userSteps.js';
import { withControlRuntime } from '../openRuntime.js';
import { EXIT, printJson, row } from '../output.js';
import { routeText } from './routeText.js';
import { registerTasksRecord } from './tasksRecord.js';

/** How `tasks show` labels each kind of conversation event. */
const EVENT_LABELS: Record<TaskEventKind, string> = {
  'user.message': 'You',
  'model.text': 'Model',
  'model.reasoning': 'Model (reasoning)',
  answer: 'Answer',
  'hook.context': 'Hook',
};

/** `agent-desk tasks list|show|message|pause|cancel|record`. */
export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('inspect and control tasks');
  tasks
    .command('list')
    .option('--state <state>', 'only tasks in this state')
    .option('--limit <n>', 'how many', '50')
    .option('--json', 'print JSON')
    .action((opts: { state?: string; limit: string; json?: boolean }) => {
      return withControlRuntime(opts.json, async (rt) => {
        const state = opts.state === undefined ? undefined : TaskStateSchema.parse(opts.state);
        const list = await rt.store.tasks.list({ limit: Number(opts.limit), ...(state && { state: state as TaskState }) });
        if (opts.json) return printJson({ tasks: list });
        for (const t of list) console.log(row([t.id, t.state, String(t.usage.steps), t.title], [30, 16, 5, 0]));
      });
    });
  tasks
    .command('show <taskId>')
    .option('--json', 'print JSON')
    .option('--trace', 'include the trace')
    .action((taskId: string, opts: { json?: boolean; trace?: boolean }) => {
      return withControlRuntime(opts.json, async (rt) => {
        const task = await rt.engine.get(taskId);
        const steps = await rt.engine.steps(taskId);
        const events = await rt.engine.events(taskId);
        const trace = opts.trace ? (await rt.trace.page(taskId, 0, 1000)).events : undefined;
        if (opts.json) return printJson({ task, steps, events, ...(trace && { trace }) });
        console.log(`${task.id}  ${task.state}  ${task.title}\n${task.stateReason ?? ''}`);
        for (const s of steps) console.log(row([stepLabel(s), s.status, s.tool, routeText(s.route), s.error ?? ''], [7, 16, 22, 40, 0]));
        for (const c of task.checks) console.log(`${c.passed ? 'PASS' : 'FAIL'}  ${c.name}: ${c.output}`);
        // The conversation in order; the answer is its last event and is printed once, at the end.
        for (const e of events) if (e.kind !== 'answer') console.log(`${EVENT_LABELS[e.kind]}: ${e.text}`);
        if (task.answer !== undefined) console.log(`\nAnswer:\n${task.answer}`);
        for (const e of trace ?? []) console.log(`${e.seq}\t${e.ts}\t${e.type}\t${JSON.stringify(e.data)}`);
      });
    });
  tasks
    .command('message <taskId> <text>')
    .description('send a goal task a message: its model reads it in the next request')
    .option('--json', 'print JSON')
    .action((taskId: string, text: string, opts: { json?: boolean }) => {
      return withControlRuntime(opts.json, async (rt) => {
        const seq = await rt.engine.message(taskId, text);
        if (opts.json) printJson({ seq });
        else console.log(`message ${seq} sent to ${taskId}`);
      });
    });
  registerTasksRecord(tasks);
  for (const verb of ['pause', 'cancel'] as const) {
    tasks
      .command(`${verb} <taskId>`)
      .option('--json', 'print JSON')
      .action((taskId: string, opts: { json?: boolean }) => {
        return withControlRuntime(opts.json, async (rt) => {
          const task = verb === 'pause' ? await rt.engine.pause(taskId) : await rt.engine.cancel(taskId);
          if (opts.json) printJson(task);
          else console.log(`${task.id} ${verb} requested (${task.state})`);
          process.exitCode = EXIT.ok;
        });
      });
  }
}

/** A plan step by its number and attempt; a person's takeover action as theirs (its plan position means nothing to a reader). */
function stepLabel(s: { index: number; attempt: number }): string {
  return s.index >= USER_STEP_INDEX_BASE ? 'you' : `#${s.index + 1}.${s.attempt}`;
}
