import type { Step, UserAnswer } from '../../contract/index.js';
import { isoAt } from '../clock.js';
import type { EngineDeps } from './engineDeps.js';
import { stateReasons } from './stateReasons.js';
import type { ExecutorHost } from './stepExecutor.js';
import { newQuestion, type QuestionInput } from './userQuestions.js';

/**
 * A tool's question mid-call: traced (`user.asked`, with the message and requested schema), the
 * task moves to `waiting_user` with the message as its reason, and once `tasks.respond` answers
 * it the answer is traced (`user.answered`: the action and field names, never the values) and
 * the task runs on. A cancel while waiting rejects, and the call ends like any cancelled call.
 */
export async function askUser(deps: EngineDeps, host: ExecutorHost, step: Step, input: QuestionInput): Promise<UserAnswer> {
  const questions = deps.questions;
  if (!questions) throw new Error('this runtime takes no questions from tools');
  const task = host.task();
  const question = newQuestion(task.id, step.id, input, isoAt(deps.clock.now()));
  const about = { index: step.index, tool: step.tool, questionId: question.id };
  host.trace('user.asked', { ...about, source: input.source, message: input.message, requestedSchema: input.requestedSchema }, step.id);
  host.transition('waiting_user', stateReasons.toolAsks(input.source, input.message));
  const answer = await questions.ask(question, host.signal);
  host.trace('user.answered', { ...about, action: answer.action, fields: Object.keys(answer.content ?? {}) }, step.id);
  if (!questions.waiting(task.id) && host.task().state === 'waiting_user') {
    host.transition('running', stateReasons.userAnswered(input.source, answer.action));
  }
  return answer;
}
