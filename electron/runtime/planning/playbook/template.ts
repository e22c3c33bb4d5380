import { AgentDeskError, formatIssuePath } from '../../errors.js';
import { parseTemplate, type ReferenceSegment, type TemplateReference } from './reference.js';

export { isTemplated, type ReferenceSegment, type TemplateReference } from './reference.js';

/** The values `${...}` references resolve against while a playbook runs. */
export interface TemplateScope {
  /** `${inputs.x}`: the task's inputs, secrets included (memory only). */
  inputs: Readonly<Record<string, unknown>>;
  /** `${steps.<id>.output...}`: outputs of completed steps, by plan step id. */
  steps: Readonly<Record<string, { output: unknown }>>;
  /** `${services.<name>.url}`: base URLs of the playbook's running services. */
  services: Readonly<Record<string, { url: string }>>;
  /** `${workspace}`: absolute path of the task workspace. */
  workspace: string;
  /** `${task.id}`. */
  task: { id: string };
}

/** A reference found inside a value, with where it sits (`at`, e.g. `['headers', 'auth']`). */
export interface FoundReference extends TemplateReference {
  at: ReferenceSegment[];
}

/** Every `${...}` reference in a value (strings, arrays and objects walked), in document order. */
export function findReferences(value: unknown, at: ReferenceSegment[] = []): FoundReference[] {
  if (typeof value === 'string') {
    return parseTemplate(value).flatMap((p) => (p.kind === 'ref' ? [{ ...p.ref, at }] : []));
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => findReferences(item, [...at, i]));
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, item]) => findReferences(item, [...at, key]));
  }
  return [];
}

/**
 * Replaces references in strings, arrays and objects. A string that is exactly one reference
 * becomes the referenced value with its type; otherwise references are interpolated (objects
 * as JSON). Throws AgentDeskError('invalid_params') for a reference that does not resolve.
 */
export function resolveTemplates(value: Record<string, unknown>, scope: TemplateScope, at?: ReferenceSegment[]): Record<string, unknown>;
export function resolveTemplates(value: unknown, scope: TemplateScope, at?: ReferenceSegment[]): unknown;
export function resolveTemplates(value: unknown, scope: TemplateScope, at: ReferenceSegment[] = []): unknown {
  if (typeof value === 'string') return resolveString(value, scope, at);
  if (Array.isArray(value)) return value.map((item, i) => resolveTemplates(item, scope, [...at, i]));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveTemplates(item, scope, [...at, key])]));
  }
  return value;
}

function resolveString(text: string, scope: TemplateScope, at: ReferenceSegment[]): unknown {
  const parts = parseTemplate(text);
  const only = parts[0];
  if (parts.length === 1 && only?.kind === 'ref') return structuredClone(lookup(only.ref, scope, at));
  return parts.map((p) => (p.kind === 'text' ? p.text : asText(lookup(p.ref, scope, at)))).join('');
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Walks the scope along the reference; own properties only, so `constructor` never resolves. */
function lookup(ref: TemplateReference, scope: TemplateScope, at: ReferenceSegment[]): unknown {
  if (ref.error !== undefined) throw unresolved(ref, at, ref.error);
  const segments = [ref.root, ...(ref.id === undefined ? [] : [ref.id]), ...ref.path];
  let current: unknown = scope;
  for (const [depth, segment] of segments.entries()) {
    if (!hasOwn(current, segment)) {
      const reason =
        depth === 0
          ? `unknown reference root ${JSON.stringify(segment)}`
          : `no ${JSON.stringify(segment)} in ${formatIssuePath(segments.slice(0, depth))}`;
      throw unresolved(ref, at, reason);
    }
    current = (current as Record<string | number, unknown>)[segment];
  }
  if (current === undefined) throw unresolved(ref, at, 'value is undefined');
  return current;
}

function hasOwn(container: unknown, key: ReferenceSegment): boolean {
  if (Array.isArray(container)) return typeof key === 'number' && key < container.length;
  return isPlainObject(container) && typeof key === 'string' && Object.hasOwn(container, key);
}

function unresolved(ref: TemplateReference, at: ReferenceSegment[], reason: string): AgentDeskError {
  return new AgentDeskError('invalid_params', `unresolved reference ${ref.raw}`, {
    reference: ref.raw,
    at: formatIssuePath(at),
    reason,
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
