/** One field of a tool's question, read from its flat requested schema (MCP elicitation's primitives). */
export interface AnswerField {
  key: string;
  title: string;
  description?: string;
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  options?: string[];
  required: boolean;
}

/** What a form holds per field before it becomes an answer. */
export type FieldValue = string | boolean | string[];

type Property = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const?: unknown }[];
  items?: { enum?: unknown[]; anyOf?: { const?: unknown }[] };
};

const strings = (values: unknown[] | undefined): string[] | undefined =>
  values?.every((v) => typeof v === 'string') ? (values as string[]) : undefined;

/** The form's fields, in the schema's property order. */
export function answerFields(schema: Record<string, unknown>): AnswerField[] {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([key, p]) => {
    const base = { key, title: p.title ?? key, required: required.has(key), ...(p.description ? { description: p.description } : {}) };
    const choice = strings(p.enum) ?? strings(p.oneOf?.map((o) => o.const));
    if (p.type === 'array')
      return { ...base, kind: 'choices', options: strings(p.items?.enum) ?? strings(p.items?.anyOf?.map((o) => o.const)) ?? [] };
    if (choice) return { ...base, kind: 'choice', options: choice };
    if (p.type === 'boolean') return { ...base, kind: 'boolean' };
    if (p.type === 'number' || p.type === 'integer') return { ...base, kind: p.type };
    return { ...base, kind: 'text' };
  });
}

/** The form's starting values: unticked, empty, nothing chosen. */
export function emptyValues(fields: readonly AnswerField[]): Record<string, FieldValue> {
  return Object.fromEntries(fields.map((f) => [f.key, f.kind === 'boolean' ? false : f.kind === 'choices' ? [] : '']));
}

/**
 * The `accept` content: numbers parsed, empty optional fields left out. A missing required field
 * or a bad number names the field; the runtime checks the rest against the schema.
 */
export function answerContent(
  fields: readonly AnswerField[],
  values: Record<string, FieldValue>,
): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (typeof value === 'boolean') {
      content[field.key] = value;
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length > 0) content[field.key] = value;
      else if (field.required) throw new AnswerError(field.key, 'required');
      continue;
    }
    const text = (value ?? '').trim();
    if (!text) {
      if (field.required) throw new AnswerError(field.key, 'required');
      continue;
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n))) throw new AnswerError(field.key, 'number');
      content[field.key] = n;
    } else content[field.key] = text;
  }
  return content;
}

/** Why an answer cannot be sent yet. */
export class AnswerError extends Error {
  constructor(
    readonly field: string,
    readonly reason: 'required' | 'number',
  ) {
    super(`${field}: ${reason}`);
  }
}
