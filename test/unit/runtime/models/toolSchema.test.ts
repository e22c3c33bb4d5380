import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ComputerActionSchema } from '../../../../electron/contract/index.js';
import { toModelToolSchema } from '../../../../electron/runtime/models/toolSchema.js';

describe('tool parameters the real APIs accept', () => {
  it('turns a discriminated union into one object with the union of its fields', () => {
    const union = z.toJSONSchema(ComputerActionSchema, { io: 'input' }) as Record<string, unknown>;
    expect(union).toHaveProperty('oneOf');
    const flat = toModelToolSchema(union);
    expect(flat.type).toBe('object');
    expect(flat).not.toHaveProperty('oneOf');
    const properties = flat.properties as Record<string, Record<string, unknown>>;
    expect(properties.action?.enum).toContain('click');
    expect(properties.action?.enum).toContain('screenshot');
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(['x', 'y', 'text', 'keys', 'path', 'dx', 'timeoutMs']));
    expect(flat.required).toEqual(['action']);
  });

  it('keeps a plain object schema as it is and gives a schema without a type an object', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(toModelToolSchema(plain)).toBe(plain);
    expect(toModelToolSchema({})).toEqual({ type: 'object', properties: {} });
  });

  it('merges allOf requirements and keeps differing property shapes as a nested anyOf', () => {
    const flat = toModelToolSchema({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { a: { type: 'number' }, b: { type: 'boolean' } }, required: ['b'] },
      ],
    });
    expect(flat).toEqual({
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] }, b: { type: 'boolean' } },
      required: ['a', 'b'],
    });
  });
});
