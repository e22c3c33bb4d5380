// The real model APIs accept a function tool's parameters only as one JSON Schema object:
// OpenAI answers 400 "schema must be a JSON Schema of 'type: "object"'", Anthropic 400
// "input_schema does not support oneOf, allOf, or anyOf at the top level". Tools come from
// zod unions and from MCP servers we do not control, so every definition passes through here.

type Schema = Record<string, unknown>;

const COMBINATORS = ['oneOf', 'anyOf', 'allOf'] as const;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A schema the real APIs take as a tool's parameters: `type: "object"` at the top, no top-level
 * `oneOf`/`anyOf`/`allOf`. A union of objects becomes one object whose properties are the union
 * of theirs (a property's variants kept as a nested `anyOf`, consts merged into one `enum`) and
 * whose required fields are those every variant requires; the tool's own validator still checks
 * each call against the exact union.
 */
export function toModelToolSchema(schema: Schema): Schema {
  const combinator = COMBINATORS.find((k) => Array.isArray(schema[k]));
  if (!combinator) return schema.type === 'object' ? schema : { ...schema, type: 'object', properties: objectProperties(schema) };
  const variants = (schema[combinator] as unknown[]).filter(isObject).map(toModelToolSchema);
  const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => !COMBINATORS.includes(k as (typeof COMBINATORS)[number])));
  return {
    ...rest,
    type: 'object',
    properties: mergeProperties(variants),
    ...requiredOf(variants, combinator === 'allOf'),
  };
}

function objectProperties(schema: Schema): Schema {
  return isObject(schema.properties) ? schema.properties : {};
}

function mergeProperties(variants: Schema[]): Schema {
  const byName = new Map<string, Schema[]>();
  for (const variant of variants)
    for (const [name, property] of Object.entries(objectProperties(variant)))
      if (isObject(property)) byName.set(name, [...(byName.get(name) ?? []), property]);
  return Object.fromEntries([...byName].map(([name, shapes]) => [name, mergeProperty(shapes)]));
}

function mergeProperty(shapes: Schema[]): Schema {
  const distinct = [...new Map(shapes.map((s) => [JSON.stringify(s), s])).values()];
  if (distinct.length === 1) return distinct[0]!;
  const constants = distinct.flatMap((s) => ('const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : [undefined]));
  if (!constants.includes(undefined)) {
    const type = distinct[0]!.type;
    return { ...(type !== undefined && distinct.every((s) => s.type === type) ? { type } : {}), enum: [...new Set(constants)] };
  }
  return { anyOf: distinct };
}

function requiredOf(variants: Schema[], all: boolean): { required?: string[] } {
  const lists = variants.map((v) => (Array.isArray(v.required) ? (v.required as string[]) : []));
  const required = all ? [...new Set(lists.flat())] : (lists[0] ?? []).filter((name) => lists.every((list) => list.includes(name)));
  return required.length > 0 ? { required } : {};
}
