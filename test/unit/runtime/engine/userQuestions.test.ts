import { describe, expect, it } from 'vitest';
import { newQuestion, UserQuestions } from '../../../../electron/runtime/engine/userQuestions.js';

const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 }, tier: { type: 'string', enum: ['free', 'pro'] } },
  required: ['name'],
};
const ask = (questions: UserQuestions, signal = new AbortController().signal) =>
  questions.ask(newQuestion('tsk_1', 'stp_1', { source: 'MCP server "s"', message: 'Who?', requestedSchema: schema }, 'now'), signal);

describe('questions tools ask the user', () => {
  it('an accepted answer matching the schema resolves the question', async () => {
    const questions = new UserQuestions();
    const answer = ask(questions);
    expect(questions.current('tsk_1')).toMatchObject({ message: 'Who?', requestedSchema: schema });
    expect(questions.answer('tsk_1', { action: 'accept', content: { name: 'Ada', tier: 'pro' } })).toMatchObject({
      source: 'MCP server "s"',
    });
    await expect(answer).resolves.toEqual({ action: 'accept', content: { name: 'Ada', tier: 'pro' } });
    expect(questions.waiting('tsk_1')).toBe(false);
  });

  it('content that does not match names every problem, and the question stays open', () => {
    const questions = new UserQuestions();
    void ask(questions);
    let error: unknown;
    try {
      questions.answer('tsk_1', { action: 'accept', content: { age: -1, tier: 'gold' } });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid_params' });
    const message = (error as Error).message;
    for (const field of ['content.name', 'content.age', 'content.tier']) expect(message).toContain(field);
    expect(() => questions.answer('tsk_1', { action: 'decline', content: { name: 'x' } })).toThrow(/only with accept/);
    expect(questions.waiting('tsk_1')).toBe(true);
  });

  it('declining needs no content; a task with no question is a conflict', async () => {
    const questions = new UserQuestions();
    const answer = ask(questions);
    questions.answer('tsk_1', { action: 'decline' });
    await expect(answer).resolves.toEqual({ action: 'decline' });
    expect(() => questions.answer('tsk_1', { action: 'cancel' })).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it('an aborted signal withdraws the question', async () => {
    const questions = new UserQuestions();
    const control = new AbortController();
    const answer = ask(questions, control.signal);
    control.abort(new Error('cancelled by the user'));
    await expect(answer).rejects.toThrow('cancelled by the user');
    expect(questions.current('tsk_1')).toBeUndefined();
  });
});
