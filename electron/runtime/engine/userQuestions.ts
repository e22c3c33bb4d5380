import { ulid } from 'ulid';
import { z } from 'zod';
import type { UserAnswer, UserQuestion } from '../../contract/index.js';
import { AgentDeskError, describeIssues, issuesFromZod } from '../errors.js';

/** What a tool passes to `ctx.askUser`: who asks, the message, and the flat schema of the answer. */
export type QuestionInput = Pick<UserQuestion, 'source' | 'message' | 'requestedSchema'>;

interface Pending {
  question: UserQuestion;
  answer(a: UserAnswer): void;
}

/**
 * Questions tools ask while a task runs, waiting in this process for `tasks.respond`. They live
 * in memory on purpose: the asking call (an MCP request) lives in this process too, and a
 * restart ends both; the task then recovers like any interrupted step.
 */
export class UserQuestions {
  private readonly pending = new Map<string, Pending[]>();

  /** The oldest unanswered question of a task. */
  current(taskId: string): UserQuestion | undefined {
    return this.pending.get(taskId)?.[0]?.question;
  }

  /** Records a question and waits for its answer; an aborted signal (cancel, pause) withdraws it. */
  ask(question: UserQuestion, signal: AbortSignal): Promise<UserAnswer> {
    return new Promise<UserAnswer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const onAbort = () => {
        this.remove(question);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const list = this.pending.get(question.taskId) ?? [];
      list.push({
        question,
        answer: (a) => {
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
      });
      this.pending.set(question.taskId, list);
    });
  }

  /** Answers a task's oldest question; accepted content must match its requested schema. */
  answer(taskId: string, answer: UserAnswer): UserQuestion {
    const first = this.pending.get(taskId)?.[0];
    if (!first) throw new AgentDeskError('conflict', `task ${taskId} is not waiting for an answer to a question`, { taskId });
    const content = answer.action === 'accept' ? checkContent(first.question, answer.content ?? {}) : undefined;
    if (answer.action !== 'accept' && answer.content !== undefined) {
      throw new AgentDeskError('invalid_params', `content goes only with accept (not with ${answer.action})`);
    }
    this.remove(first.question);
    first.answer({ action: answer.action, ...(content && { content }) });
    return first.question;
  }

  /** Whether a task still has questions open (after one is answered, another call may be asking). */
  waiting(taskId: string): boolean {
    return (this.pending.get(taskId)?.length ?? 0) > 0;
  }

  private remove(question: UserQuestion): void {
    const list = (this.pending.get(question.taskId) ?? []).filter((p) => p.question.id !== question.id);
    if (list.length > 0) this.pending.set(question.taskId, list);
    else this.pending.delete(question.taskId);
  }
}

/** A question record for a task's step. */
export function newQuestion(taskId: string, stepId: string | undefined, input: QuestionInput, at: string): UserQuestion {
  return { id: `q_${ulid()}`, taskId, ...(stepId !== undefined && { stepId }), ...input, askedAt: at };
}

/** Validates an answer against the question's JSON Schema (with its defaults applied); names every problem. */
function checkContent(question: UserQuestion, content: Record<string, unknown>): UserAnswer['content'] {
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(question.requestedSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    schema = z.record(z.string(), z.unknown());
  }
  const parsed = schema.safeParse(content);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues, ['content']);
    throw new AgentDeskError('invalid_params', `the answer does not match the requested schema:\n${describeIssues(issues)}`, {
      issues,
      requestedSchema: question.requestedSchema,
    });
  }
  return parsed.data as UserAnswer['content'];
}
