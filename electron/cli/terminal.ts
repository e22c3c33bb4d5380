import { createInterface } from 'node:readline/promises';
import type { Approval, Task } from '../contract/index.js';
import type { RuntimeCore } from '../runtime/core/runtimeCore.js';
import { Spinner, stateColour, terminalStyle } from './terminalStyle.js';

/**
 * Prints one line per step and state change to stderr while a task runs on a terminal, in
 * colour; while a goal task's model is called (running, no step under way) a spinner turns.
 * Returns the stop function and the spinner (the approval prompt clears it before asking).
 */
export async function showProgress(rt: RuntimeCore, taskId: string): Promise<{ stop(): void; spinner: Spinner }> {
  const style = terminalStyle();
  const spinner = new Spinner('waiting for the model…');
  const task = await rt.engine.get(taskId);
  const goal = task.plan.kind === 'goal';
  // The task's state as its updates pass by (read once here): a step's end asks it without a query.
  let state = task.state;
  const line = (text: string) => {
    spinner.clear();
    process.stderr.write(`${text}\n`);
  };
  const off = rt.bus.on({ taskId }, (frame) => {
    if (frame.event === 'task.updated') {
      const t = frame.data as Task;
      state = t.state;
      line(`${style.dim('•')} ${stateColour(style, t.state)}${t.stateReason ? style.dim(` — ${t.stateReason}`) : ''}`);
      if (goal && (t.state === 'running' || t.state === 'planning')) spinner.start();
    } else if (frame.event === 'task.step') {
      const s = frame.data as { index: number; tool: string; status: string; durationMs?: number };
      if (s.status === 'started') return spinner.clear();
      const ms = s.durationMs === undefined ? '' : style.dim(` (${Math.round(s.durationMs)} ms)`);
      line(`  step ${s.index + 1} ${style.bold(s.tool)}: ${stateColour(style, s.status)}${ms}`);
      if (goal && state === 'running') spinner.start(); // the model picks the next step
    } else if (frame.event === 'approval.requested') {
      spinner.clear();
    }
  });
  return {
    spinner,
    stop: () => {
      off();
      spinner.clear();
    },
  };
}

const CHOICES: Record<string, { decision: 'approve' | 'deny'; remember: 'once' | 'task' | 'always' }> = {
  y: { decision: 'approve', remember: 'once' },
  t: { decision: 'approve', remember: 'task' },
  a: { decision: 'approve', remember: 'always' },
  n: { decision: 'deny', remember: 'once' },
};

/** Ctrl-C at the prompt: the user stops here; the task keeps waiting for its approval. */
export class PromptInterrupted extends Error {}

async function ask(rt: RuntimeCore, approval: Approval): Promise<void> {
  if ((await rt.approvals.get(approval.id))?.status !== 'pending') return; // decided elsewhere meanwhile
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // On a TTY readline turns Ctrl-C into this event instead of a signal: without it nothing stops.
  const interrupted = new Promise<never>((_, reject) => rl.once('SIGINT', () => reject(new PromptInterrupted())));
  const question = (text: string) => Promise.race([rl.question(text), interrupted]);
  try {
    process.stderr.write(`\nApproval needed — ${approval.preview.summary}\n  ${approval.reason}\n`);
    if (approval.preview.body) process.stderr.write(`${approval.preview.body.replace(/^/gm, '  │ ')}\n`);
    const options = approval.rememberable ? '[y]es once / [t]his task / [a]lways / [n]o' : '[y]es once / [n]o';
    for (;;) {
      const answer = (await question(`${options}: `)).trim().toLowerCase().slice(0, 1);
      const choice = CHOICES[answer];
      if (!choice || (!approval.rememberable && choice.remember !== 'once')) continue;
      const reason = choice.decision === 'deny' ? (await question('Reason (optional): ')).trim() : '';
      await rt.approvals.decide(approval.id, { ...choice, ...(reason && { reason }) }, 'cli:terminal');
      return;
    }
  } finally {
    rl.close();
  }
}

/**
 * Asks for each approval of the task on the terminal: those already pending (a resumed task
 * waits on them, no new request comes) and each one requested later. Ctrl-C at the prompt
 * calls `onInterrupt`; the approval stays pending.
 */
export async function askApprovalsInteractively(
  rt: RuntimeCore,
  taskId: string,
  onInterrupt: () => void,
  before: () => void = () => undefined,
): Promise<() => void> {
  let chain = Promise.resolve();
  const enqueue = (approval: Approval) => {
    chain = chain
      .then(() => (before(), ask(rt, approval)))
      .catch((e: unknown) => (e instanceof PromptInterrupted ? onInterrupt() : void process.stderr.write(`${String(e)}\n`)));
  };
  // Listening first: one requested while the pending ones are read is not missed (`ask` skips a decided one).
  const seen = new Set<string>();
  const once = (approval: Approval) => {
    if (seen.has(approval.id)) return;
    seen.add(approval.id);
    enqueue(approval);
  };
  const off = rt.bus.on({ taskId, events: ['approval.requested'] }, (frame) => once(frame.data as Approval));
  try {
    for (const approval of await rt.approvals.list({ taskId, status: 'pending' })) once(approval);
  } catch (error) {
    off();
    throw error;
  }
  return off;
}
