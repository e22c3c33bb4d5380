import { describe, expect, it } from 'vitest';
import type { Step, Task, TaskEvent } from '../../../electron/contract/index.js';
import { conversation, finalAnswer } from '../../../renderer/src/features/task-detail/conversation.js';
import { taskCounters } from '../../../renderer/src/stores/taskCounters.js';

const step = (index: number, attempt: number, startedAt: string, extra: Partial<Step> = {}): Step => ({
  id: `s${index}.${attempt}`,
  taskId: 't',
  index,
  attempt,
  tool: 'fs.write',
  args: {},
  status: 'completed',
  idempotencyKey: 'k',
  readOnly: false,
  idempotent: true,
  tokens: 100,
  costUsd: 0.001,
  startedAt,
  ...extra,
});
const event = (seq: number, kind: TaskEvent['kind'], at: string): TaskEvent => ({ taskId: 't', seq, kind, text: `${kind} ${seq}`, at });

describe('a task as a conversation', () => {
  it('merges words and steps by time, the latest attempt of a step once, the answer left for the end', () => {
    const items = conversation(
      [
        event(1, 'model.text', '2026-12-01T10:00:01Z'),
        event(2, 'user.message', '2026-12-01T10:00:03Z'),
        event(3, 'answer', '2026-12-01T10:00:05Z'),
      ],
      [step(0, 1, '2026-12-01T10:00:01Z', { status: 'failed' }), step(0, 2, '2026-12-01T10:00:02Z'), step(1, 1, '2026-12-01T10:00:04Z')],
      [],
    );
    expect(items.map((i) => (i.kind === 'event' ? i.event.kind : i.kind === 'step' ? `step ${i.step.id}` : 'approval'))).toEqual([
      'model.text',
      'step s0.2',
      'user.message',
      'step s1.1',
    ]);
    expect(finalAnswer(undefined, [event(3, 'answer', 'x')])).toBe('answer 3');
  });

  it('counters never disagree with the steps shown: usage written behind the steps does not undercount', () => {
    const task = { usage: { steps: 0, modelCalls: 1, tokensIn: 900, tokensOut: 40, costUsd: 0.0005, wallMs: 0 } } as Task;
    const counters = taskCounters(task, [step(0, 1, 'a'), step(1, 1, 'b', { status: 'waiting_approval' }), step(2, 1, 'c')]);
    expect(counters).toEqual({ steps: 2, tokens: 940, costUsd: 0.003 });
  });
});
