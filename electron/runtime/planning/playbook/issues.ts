import type { z } from 'zod';
import type { Issue } from '../../../contract/index.js';
import { formatIssuePath } from '../../errors.js';

type ZodIssue = z.ZodError['issues'][number];
type Path = readonly PropertyKey[];

/**
 * Turns zod issues into one located, readable issue per problem: a missing key reads
 * `required`, each unknown key gets its own `unknown field` issue, and union failures name
 * what was expected. `data` is the validated input, used to tell missing keys from bad values.
 */
export function readableIssues(
  issues: readonly ZodIssue[],
  data: unknown,
  prefix: Path = [],
  skip: (path: Path) => boolean = () => false,
): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    if (skip(issue.path)) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push(at([...prefix, ...issue.path, key], 'unknown field'));
      continue;
    }
    out.push(at([...prefix, ...issue.path], messageFor(issue, data)));
  }
  return out;
}

/** Top-level playbook fields in document order, for sorting issues the way a reader scans. */
const SECTIONS = ['(root)', 'name', 'description', 'inputs', 'services', 'budget', 'steps', 'acceptance'];

/** Orders issues by section, then by item index (`steps[2]` before `steps[10]`); stable otherwise. */
export function sortByLocation(issues: readonly Issue[]): Issue[] {
  const key = (issue: Issue): [number, number] => {
    const match = /^([^.[]+)(?:\[(\d+)\])?/.exec(issue.path);
    const section = SECTIONS.indexOf(match?.[1] ?? '');
    return [section === -1 ? SECTIONS.length : section, Number(match?.[2] ?? -1)];
  };
  return issues
    .map((issue, order) => ({ issue, order, key: key(issue) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.order - b.order)
    .map((entry) => entry.issue);
}

/** The value at a zod path inside `data`, and whether its last key is absent. */
export function valueAt(data: unknown, path: Path): { value: unknown; missing: boolean } {
  let current: unknown = data;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) {
      return { value: undefined, missing: true };
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { value: current, missing: false };
}

function at(path: Path, message: string): Issue {
  return { path: formatIssuePath(path), message };
}

function messageFor(issue: ZodIssue, data: unknown): string {
  const found = valueAt(data, issue.path);
  if (issue.code === 'invalid_type') {
    return found.missing ? 'required' : `expected ${issue.expected}, got ${typeName(found.value)}`;
  }
  if (issue.code === 'invalid_union') return unionMessage(issue, found.value);
  return issue.message.replace(/^Invalid input: /, '');
}

function unionMessage(issue: Extract<ZodIssue, { code: 'invalid_union' }>, value: unknown): string {
  const withOptions = issue as { discriminator?: string; options?: unknown[] };
  if (withOptions.discriminator !== undefined && Array.isArray(withOptions.options)) {
    const expected = withOptions.options.join(', ');
    return value === undefined ? `required (one of ${expected})` : `unknown ${JSON.stringify(value)} (expected one of ${expected})`;
  }
  // Each branch failed on its own type (e.g. number | number[]): name the alternatives.
  const expected = issue.errors.map((branch) => {
    const first = branch[0];
    return branch.length === 1 && first?.code === 'invalid_type' && first.path.length === 0 ? first.expected : undefined;
  });
  if (expected.length > 0 && expected.every((e) => e !== undefined)) {
    return `expected ${expected.join(' or ')}, got ${typeName(value)}`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
