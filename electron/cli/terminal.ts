import { createInterface } from 'node:readline/promises';
import type { Approval } from '../contract/index.js';
import type { AgentRuntime } from '../runtime/agentRuntime.js';

/** Prints one line per step and state change to stderr while a task runs on a terminal. */
export function showProgress(rt: AgentRuntime, taskId: string): () => void {
  return rt.bus.on({ taskId }, (frame) => {
    if (frame.event === 'task.updated') {
      const t = frame.data as { state: string; stateReason?: string };
      process.stderr.write(`• ${t.state}${t.stateReason ? ` — ${t.stateReason}` : ''}\n`);
    } else if (frame.event === 'task.step') {
      const s = frame.data as { index: number; tool: string; status: string; durationMs?: number };
      if (s.status === 'started') return;
      const ms = s.durationMs === undefined ? '' : ` (${Math.round(s.durationMs)} ms)`;
      process.stderr.write(`  step ${s.index + 1} ${s.tool}: ${s.status}${ms}\n`);
    }
  });
}

const CHOICES: Record<string, { decision: 'approve' | 'deny'; remember: 'once' | 'task' | 'always' }> = {
  y: { decision: 'approve', remember: 'once' },
  t: { decision: 'approve', remember: 'task' },
  a: { decision: 'approve', remember: 'always' },
  n: { decision: 'deny', remember: 'once' },
};

async function ask(rt: AgentRuntime, approval: Approval): Promise<void> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    process.stderr.write(`\nApproval needed — ${approval.preview.summary}\n  ${approval.reason}\n`);
    if (approval.preview.body) process.stderr.write(`${approval.preview.body.replace(/^/gm, '  │ ')}\n`);
    const options = approval.rememberable ? '[y]es once / [t]his task / [a]lways / [n]o' : '[y]es once / [n]o';
    for (;;) {
      const answer = (await rl.question(`${options}: `)).trim().toLowerCase().slice(0, 1);
      const choice = CHOICES[answer];
      if (!choice || (!approval.rememberable && choice.remember !== 'once')) continue;
      const reason = choice.decision === 'deny' ? (await rl.question('Reason (optional): ')).trim() : '';
      rt.approvals.decide(approval.id, { ...choice, ...(reason && { reason }) }, 'cli:terminal');
      return;
    }
  } finally {
    rl.close();
  }
}

/** Asks for each approval of the task on the terminal as it is requested. */
export function askApprovalsInteractively(rt: AgentRuntime, taskId: string): () => void {
  let chain = Promise.resolve();
  return rt.bus.on({ taskId, events: ['approval.requested'] }, (frame) => {
    chain = chain.then(() => ask(rt, frame.data as Approval)).catch((e) => void process.stderr.write(`${String(e)}\n`));
  });
}
