import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ComputerActionSchema, ComputerToolInputSchema } from '../../../electron/contract/index.js';

describe('the computer tool input a model sees', () => {
  const schema = z.toJSONSchema(ComputerToolInputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

  it('is one object at the top level, as the real APIs require', () => {
    expect(schema.type).toBe('object');
    expect(schema).not.toHaveProperty('oneOf');
    expect(schema).not.toHaveProperty('anyOf');
    expect(schema).not.toHaveProperty('allOf');
    expect((schema.properties as Record<string, { enum?: string[] }>).action?.enum).toEqual(
      ComputerActionSchema.options.map((o) => o.shape.action.value),
    );
    expect(schema.required).toEqual(['action']);
  });

  it('parses into the action union with its defaults', () => {
    expect(ComputerToolInputSchema.parse({ action: 'click', x: 3, y: 4 })).toEqual({
      action: 'click',
      x: 3,
      y: 4,
      button: 'left',
      count: 1,
    });
    expect(ComputerToolInputSchema.parse({ action: 'type', text: '你好' })).toEqual({ action: 'type', text: '你好' });
  });

  it('still refuses fields that belong to another action, and a missing field', () => {
    expect(ComputerToolInputSchema.safeParse({ action: 'click', x: 3, y: 4, text: 'a' }).success).toBe(false);
    expect(ComputerToolInputSchema.safeParse({ action: 'type' }).success).toBe(false);
    expect(ComputerToolInputSchema.safeParse({ action: 'fly' }).success).toBe(false);
  });
});
