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

describe('a click on a named element', () => {
  it('takes a target instead of, or beside, a coordinate', () => {
    expect(ComputerToolInputSchema.parse({ action: 'click', target: { role: 'button', name: 'Save note' } })).toMatchObject({
      action: 'click',
      target: { role: 'button', name: 'Save note' },
    });
    expect(ComputerToolInputSchema.parse({ action: 'click', target: { text: '保存' }, x: 3, y: 4 })).toMatchObject({
      x: 3,
      target: { text: '保存' },
    });
  });

  it('refuses a click with neither, half a coordinate, or a target that names nothing', () => {
    const message = (v: unknown) =>
      ComputerToolInputSchema.safeParse(v)
        .error?.issues.map((i) => i.message)
        .join('; ');
    expect(message({ action: 'click' })).toMatch(/needs x and y, a target, or a mark/);
    expect(message({ action: 'click', x: 3 })).toMatch(/both x and y, or neither/);
    expect(message({ action: 'click', target: { role: 'button' } })).toMatch(/names its element/);
  });
});

describe('marked screenshots and a click on a mark', () => {
  const message = (v: unknown) =>
    ComputerToolInputSchema.safeParse(v)
      .error?.issues.map((i) => i.message)
      .join('; ');

  it('a screenshot may ask for marks; a click may name a mark alone', () => {
    expect(ComputerToolInputSchema.parse({ action: 'screenshot', marks: true })).toEqual({ action: 'screenshot', marks: true });
    expect(ComputerToolInputSchema.parse({ action: 'click', mark: 7 })).toMatchObject({
      action: 'click',
      mark: 7,
      button: 'left',
      count: 1,
    });
  });

  // The gate reads a click's words from its target or its mark: both at once would let one name hide the other.
  it('refuses a mark beside a target or a coordinate, a mark of 0, and marks on another action', () => {
    expect(message({ action: 'click', mark: 7, target: { role: 'button', name: 'Cancel' } })).toMatch(/names a mark alone/);
    expect(message({ action: 'click', mark: 7, x: 3, y: 4 })).toMatch(/names a mark alone/);
    expect(message({ action: 'click', mark: 0 })).toBeDefined();
    expect(message({ action: 'move', x: 1, y: 1, mark: 3 })).toBeDefined();
    expect(message({ action: 'zoom', region: [0, 0, 9, 9], marks: true })).toBeDefined();
  });
});
