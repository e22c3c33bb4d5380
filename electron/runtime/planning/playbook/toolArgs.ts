import type { z } from 'zod';
import type { Issue } from '../../../contract/index.js';
import { readableIssues, valueAt } from './issues.js';
import { isTemplated } from './template.js';

/** Looks up a tool's zod input schema by name; undefined means no such tool. */
export type ToolInputLookup = (tool: string) => z.ZodType | undefined;

/**
 * Reports unknown tool names and step args that do not fit the tool's input schema. A problem
 * at (or under) a templated value is skipped: that value is only known at run time.
 */
export function toolArgIssues(raw: unknown, toolInput: ToolInputLookup): Issue[] {
  const steps = isRecord(raw) && Array.isArray(raw.steps) ? raw.steps : [];
  return steps.flatMap((step, i) => (isRecord(step) ? stepIssues(step, i, toolInput) : []));
}

function stepIssues(step: Record<string, unknown>, index: number, toolInput: ToolInputLookup): Issue[] {
  if (typeof step.tool !== 'string' || step.tool === '') return [];
  const schema = toolInput(step.tool);
  if (schema === undefined) {
    return [{ path: `steps[${index}].tool`, message: `unknown tool ${JSON.stringify(step.tool)}` }];
  }
  const args = step.args ?? {};
  if (!isRecord(args)) return []; // the playbook schema already reports it
  const result = safeParse(schema, args);
  if (result === undefined || result.success) return [];
  return readableIssues(result.error.issues, args, ['steps', index, 'args'], (path) => underTemplate(args, path));
}

/** True when the value at `path`, or at any of its ancestors inside args, is templated. */
function underTemplate(args: Record<string, unknown>, path: readonly PropertyKey[]): boolean {
  for (let depth = 1; depth <= path.length; depth += 1) {
    if (isTemplated(valueAt(args, path.slice(0, depth)).value)) return true;
  }
  return false;
}

// A schema with async refinements cannot be checked synchronously; it is checked at run time.
function safeParse(schema: z.ZodType, args: unknown): ReturnType<z.ZodType['safeParse']> | undefined {
  try {
    return schema.safeParse(args);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
