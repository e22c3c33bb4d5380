import type { Approval, Step, TaskEvent } from '../../../../electron/contract/index.js';

/** One entry of a task's conversation, in the order it happened. */
export type ConversationItem =
  | { kind: 'event'; at: string; event: TaskEvent }
  | { kind: 'step'; at: string; step: Step }
  | { kind: 'approval'; at: string; approval: Approval };

// At the same instant: what was said, then the step it led to, then the approval that step asked for.
const RANK: Record<ConversationItem['kind'], number> = { event: 0, step: 1, approval: 2 };

/**
 * The model's words, the user's messages, the steps and the approvals of one task, merged by time.
 * The final answer is left out: the page shows it once, last, from `task.answer`. A retried step
 * shows its latest attempt only (the attempt number says it was retried).
 */
export function conversation(events: readonly TaskEvent[], steps: readonly Step[], approvals: readonly Approval[]): ConversationItem[] {
  const latest = new Map<number, Step>();
  for (const step of steps) if ((latest.get(step.index)?.attempt ?? 0) <= step.attempt) latest.set(step.index, step);
  const items: ConversationItem[] = [
    ...events.filter((e) => e.kind !== 'answer').map((event) => ({ kind: 'event' as const, at: event.at, event })),
    ...[...latest.values()].map((step) => ({ kind: 'step' as const, at: step.startedAt, step })),
    ...approvals.map((approval) => ({ kind: 'approval' as const, at: approval.createdAt, approval })),
  ];
  return items.sort((a, b) => a.at.localeCompare(b.at) || RANK[a.kind] - RANK[b.kind]);
}

/** The final answer: the task's own, else the last answer event. */
export function finalAnswer(answer: string | undefined, events: readonly TaskEvent[]): string | undefined {
  return answer ?? [...events].reverse().find((e) => e.kind === 'answer')?.text;
}
