import { z } from 'zod';

/**
 * A patch schema for an object schema: every field optional and without its default, so a patch
 * names only what changes (a plain `.partial()` would still fill in defaults and reset fields).
 */
export function patchOf<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const inner = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType);
    shape[key] = inner.optional();
  }
  return z.object(shape).strict() as unknown as z.ZodObject<{ [K in keyof S]: z.ZodOptional<S[K]> }>;
}
