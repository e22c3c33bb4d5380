import type { Step, UserAnswer } from '../../contract/index.js';
import { isoAt } from '../clock.js';
import type { EngineDeps } from './engineDeps.js';
import type { RunControl, RunView } from './runView.js';
import { stateReasons } from './stateReasons.js';
import type { StepRecorder } from './stepRecorder.js';
import { newQuestion, type QuestionInput } from './userQuestions.js';

/**
 * A tool's question mid-call: traced (`user.asked`, with the message and requested schema), the
 * task moves to `waiting_user` with the message as its reason, and once `tasks.respond` answers
 * it the answer is traced (`user.answered`: the action and field names, never the values) and
 * the task runs on. A cancel while waiting rejects, and the call ends like any cancelled call.
 */
export async function askUser(
  deps: EngineDeps,
  run: RunView & RunControl,
  recorder: StepRecorder,
  step: Step,
  input: QuestionInput,
): Promise<UserAnswer> {
  const questions = deps.questions;
  if (!questions) throw new Error('this runtime takes no questions from tools');
  const task = run.task();
  const question = newQuestion(task.id, step.id, input, isoAt(deps.clock.now()));
  const about = { index: step.index, tool: step.tool, questionId: question.id };
  recorder.trace('user.asked', { ...about, source: input.source, message: input.message, requestedSchema: input.requestedSchema }, step.id);
  await run.transition('waiting_user', stateReasons.toolAsks(input.source, input.message));
  const answer = await questions.ask(question, run.signal);
  recorder.trace('user.answered', { ...about, action: answer.action, fields: Object.keys(answer.content ?? {}) }, step.id);
  if (!questions.waiting(task.id) && run.task().state === 'waiting_user') {
    await run.transition('running', stateReasons.userAnswered(input.source, answer.action));
  }
  return answer;
}
