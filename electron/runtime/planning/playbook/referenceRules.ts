import type { Issue } from '../../../contract/index.js';
import { formatIssuePath } from '../../errors.js';
import { findReferences, type FoundReference } from './template.js';

/** What references may point at: declared inputs and services, and step ids by position. */
interface Declarations {
  inputs: ReadonlySet<string>;
  services: ReadonlySet<string>;
  stepIndex: ReadonlyMap<string, number>;
}

/** Plan step id of a playbook step: its `id`, else `step<n>` counted from 1. */
export function planStepIdOf(step: { id?: unknown }, index: number): string {
  return typeof step.id === 'string' ? step.id : `step${index + 1}`;
}

/**
 * Checks that need the whole playbook: duplicate step ids and `${...}` references to undeclared
 * inputs, unknown services, unknown or not-yet-run steps, or unknown roots. Works on the raw
 * YAML data so these issues are reported together with schema issues.
 */
export function referenceIssues(raw: unknown): Issue[] {
  const doc = asRecord(raw);
  const steps = asArray(doc.steps).map(asRecord);
  const issues: Issue[] = [];
  const stepIndex = new Map<string, number>();
  steps.forEach((step, i) => {
    const id = planStepIdOf(step, i);
    const first = stepIndex.get(id);
    if (first === undefined) stepIndex.set(id, i);
    else issues.push({ path: `steps[${i}].id`, message: `duplicate step id "${id}" (also steps[${first}])` });
  });
  const declared: Declarations = {
    inputs: new Set(Object.keys(asRecord(doc.inputs))),
    services: new Set(asArray(doc.services).flatMap((s) => nameOf(s))),
    stepIndex,
  };
  steps.forEach((step, i) => {
    for (const field of ['title', 'args', 'expect'] as const) {
      for (const ref of findReferences(step[field], ['steps', i, field])) {
        report(issues, ref, checkReference(ref, declared, i));
      }
    }
  });
  asArray(doc.acceptance).forEach((check, i) => {
    for (const ref of findReferences(check, ['acceptance', i])) {
      report(issues, ref, checkReference(ref, declared, undefined));
    }
  });
  return issues;
}

function report(issues: Issue[], ref: FoundReference, message: string | undefined): void {
  if (message !== undefined) issues.push({ path: formatIssuePath(ref.at), message });
}

/** Why a reference is invalid, or undefined. `current` is the referring step (none for acceptance). */
function checkReference(ref: FoundReference, declared: Declarations, current: number | undefined): string | undefined {
  const { raw, id = '', path } = ref;
  if (ref.error !== undefined) return `invalid reference ${raw}: ${ref.error}`;
  switch (ref.root) {
    case 'inputs':
      if (!declared.inputs.has(id)) return `undeclared input "${id}" in ${raw} (declare it under inputs)`;
      return path.length > 0 ? `${raw}: inputs are plain values without fields` : undefined;
    case 'steps':
      return checkStepReference(ref, declared, current);
    case 'services':
      if (!declared.services.has(id)) return `unknown service "${id}" in ${raw} (declare it under services)`;
      return path.length === 1 && path[0] === 'url' ? undefined : `${raw}: only \${services.${id}.url} is available`;
    case 'workspace':
      return path.length === 0 ? undefined : `${raw}: \${workspace} has no fields`;
    case 'task':
      return path.length === 1 && path[0] === 'id' ? undefined : `${raw}: only \${task.id} is available`;
    default:
      return `unknown reference root "${ref.root}" in ${raw} (use inputs, steps, services, workspace or task)`;
  }
}

function checkStepReference(ref: FoundReference, declared: Declarations, current: number | undefined): string | undefined {
  const { raw, id = '', path } = ref;
  const target = declared.stepIndex.get(id);
  if (target === undefined) return `unknown step "${id}" in ${raw}`;
  if (current !== undefined && target >= current) {
    return target === current
      ? `${raw} refers to its own step; a step can only use outputs of earlier steps`
      : `${raw} refers to steps[${target}], which runs after this step; move it earlier`;
  }
  return path[0] === 'output' ? undefined : `${raw}: use \${steps.${id}.output...}`;
}

function nameOf(service: unknown): string[] {
  const name = asRecord(service).name;
  return typeof name === 'string' ? [name] : [];
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
