import { describe, expect, it } from 'vitest';
import { AnswerError, answerContent, answerFields, emptyValues } from '../../../renderer/src/features/task-detail/answerFields.js';

const SCHEMA = {
  type: 'object',
  required: ['name', 'tags'],
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your full name' },
    agree: { type: 'boolean' },
    age: { type: 'integer' },
    score: { type: 'number' },
    pet: { type: 'string', enum: ['cat', 'dog'] },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'ada', title: 'Ada' },
        { const: 'alan', title: 'Alan' },
      ],
    },
    tags: { type: 'array', items: { enum: ['a', 'b'] } },
    fish: { type: 'array', items: { anyOf: [{ const: 'f1' }, { const: 'f2' }] } },
  },
};

describe('a tool question as a form (MCP elicitation schema)', () => {
  it('reads each primitive property into a field of the right kind, in order', () => {
    expect(answerFields(SCHEMA).map((f) => [f.key, f.kind, f.required, f.options ?? null])).toEqual([
      ['name', 'text', true, null],
      ['agree', 'boolean', false, null],
      ['age', 'integer', false, null],
      ['score', 'number', false, null],
      ['pet', 'choice', false, ['cat', 'dog']],
      ['hero', 'choice', false, ['ada', 'alan']],
      ['tags', 'choices', true, ['a', 'b']],
      ['fish', 'choices', false, ['f1', 'f2']],
    ]);
    expect(answerFields(SCHEMA)[0]).toMatchObject({ title: 'Name', description: 'Your full name' });
  });

  it('builds the accept content: numbers parsed, empty optional fields left out', () => {
    const fields = answerFields(SCHEMA);
    const values = { ...emptyValues(fields), name: ' Ada ', age: '36', score: '9.5', tags: ['b'] };
    expect(answerContent(fields, values)).toEqual({ name: 'Ada', agree: false, age: 36, score: 9.5, tags: ['b'] });
  });

  it('names the field that is missing or not a number', () => {
    const fields = answerFields(SCHEMA);
    const base = { ...emptyValues(fields), name: 'Ada', tags: ['a'] };
    expect(() => answerContent(fields, { ...base, name: ' ' })).toThrow(expect.objectContaining({ field: 'name', reason: 'required' }));
    expect(() => answerContent(fields, { ...base, tags: [] })).toThrow(expect.objectContaining({ field: 'tags', reason: 'required' }));
    expect(() => answerContent(fields, { ...base, age: '3.5' })).toThrow(AnswerError);
    expect(() => answerContent(fields, { ...base, score: 'lots' })).toThrow(expect.objectContaining({ field: 'score', reason: 'number' }));
  });
});
