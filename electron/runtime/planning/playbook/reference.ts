/** A path segment inside a reference: a property name or an array index. */
export type ReferenceSegment = string | number;

/** One `${...}` reference found in a templated string. */
export interface TemplateReference {
  /** First segment: `inputs`, `steps`, `services`, `workspace`, `task` (or an unknown one). */
  root: string;
  /** The named entry for roots that hold named entries (input, step or service name). */
  id?: string;
  /** Segments after the root and id, e.g. `['output', 'items', 0, 'name']`. */
  path: ReferenceSegment[];
  /** The reference as written, e.g. `${steps.fetch.output.items[0]}`. */
  raw: string;
  /** Set when the expression between `${` and `}` cannot be parsed. */
  error?: string;
}

/** A piece of a templated string: literal text or a reference. */
export type TemplatePart = { kind: 'text'; text: string } | { kind: 'ref'; ref: TemplateReference };

/** A secret reference at the current position, left as text for the step executor. */
const SECRET_REF = /^\$\{secret:[A-Za-z0-9][A-Za-z0-9._-]*\}/;

/** Roots whose second segment names an entry (`inputs.x`, `steps.fetch`, `services.api`). */
const NAMED_ROOTS = new Set(['inputs', 'steps', 'services']);

// A dotted name (`output`, `items`) or a bracketed index (`[0]`), anchored at the current offset.
const SEGMENT = /([^.[\]\s{}]+)|\[(\d+)\]/y;

/**
 * Splits a string into literal text and `${...}` references. `$${` is an escaped literal `${`.
 * An unterminated `${` yields a reference carrying an error rather than throwing, so validation
 * can report it with its location.
 */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      literal += '${';
      i += 3;
    } else if (SECRET_REF.test(text.slice(i, i + 110))) {
      // `${secret:name}` is not the playbook's to resolve: the executor puts the value in at the call.
      const ref = SECRET_REF.exec(text.slice(i, i + 110))![0];
      literal += ref;
      i += ref.length;
    } else if (text.startsWith('${', i)) {
      const end = text.indexOf('}', i + 2);
      if (literal !== '') parts.push({ kind: 'text', text: literal });
      literal = '';
      if (end === -1) {
        const raw = text.slice(i);
        parts.push({ kind: 'ref', ref: { root: '', path: [], raw, error: 'missing closing }' } });
        return parts;
      }
      parts.push({ kind: 'ref', ref: parseExpression(text.slice(i + 2, end), text.slice(i, end + 1)) });
      i = end + 1;
    } else {
      literal += text[i];
      i += 1;
    }
  }
  if (literal !== '') parts.push({ kind: 'text', text: literal });
  return parts;
}

/** True when a string contains a reference (an unescaped `${`). */
export function isTemplated(value: unknown): value is string {
  return typeof value === 'string' && parseTemplate(value).some((p) => p.kind === 'ref');
}

/** Parses `steps.fetch.output.items[0]` into root, id and path segments. */
function parseExpression(expression: string, raw: string): TemplateReference {
  const segments = splitSegments(expression);
  if (segments === undefined || segments.length === 0 || typeof segments[0] !== 'string') {
    return { root: '', path: [], raw, error: 'expected a dotted path such as inputs.name' };
  }
  const [root, ...rest] = segments as [string, ...ReferenceSegment[]];
  if (!NAMED_ROOTS.has(root)) return { root, path: rest, raw };
  const [id, ...path] = rest;
  if (typeof id !== 'string') return { root, path: rest, raw, error: `expected ${root}.<name>` };
  return { root, id, path, raw };
}

/** Dotted names and `[n]` indexes; undefined when the text is not such a path. */
function splitSegments(expression: string): ReferenceSegment[] | undefined {
  const segments: ReferenceSegment[] = [];
  let offset = 0;
  while (offset < expression.length) {
    // A dot separates names; an index follows its name directly (`items[0]`).
    if (segments.length > 0 && expression[offset] === '.') offset += 1;
    else if (segments.length > 0 && expression[offset] !== '[') return undefined;
    SEGMENT.lastIndex = offset;
    const match = SEGMENT.exec(expression);
    if (match === null) return undefined;
    segments.push(match[2] !== undefined ? Number(match[2]) : (match[1] as string));
    offset = SEGMENT.lastIndex;
  }
  return segments;
}
