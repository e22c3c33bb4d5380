import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { PlaybookSchema, type Issue, type Playbook } from '../../../contract/index.js';
import { AgentDeskError, describeIssues } from '../../errors.js';
import { readableIssues, sortByLocation } from './issues.js';
import { referenceIssues } from './referenceRules.js';
import { toolArgIssues, type ToolInputLookup } from './toolArgs.js';

/** How a playbook is checked beyond its own schema. */
export interface ParsePlaybookOptions {
  /** When given, tool names must exist and step args must fit the tool's input schema. */
  toolInput?: ToolInputLookup;
  /** When given, a step's `capability:` must be one some registered tool provides. */
  capabilityKnown?: (capability: string) => boolean;
  /** Named in error headers, e.g. the file path. */
  source?: string;
}

/**
 * Parses and validates a YAML playbook. Every problem found (YAML syntax, schema, references,
 * tool args) is reported at once: AgentDeskError('invalid_playbook') whose message is a header
 * plus one `path: message` line per issue, with `details.issues`.
 */
export function parsePlaybook(text: string, options: ParsePlaybookOptions = {}): Playbook {
  const raw = parseYaml(text, options.source);
  const parsed = PlaybookSchema.safeParse(raw);
  const issues = sortByLocation([
    ...(parsed.success ? [] : readableIssues(parsed.error.issues, raw)),
    ...referenceIssues(raw),
    ...(options.toolInput === undefined ? [] : toolArgIssues(raw, options.toolInput)),
    ...(options.capabilityKnown === undefined ? [] : capabilityIssues(raw, options.capabilityKnown)),
  ]);
  if (issues.length > 0) throw invalidPlaybook('invalid playbook', issues, options.source);
  if (!parsed.success) throw new AgentDeskError('internal', 'playbook failed validation without issues');
  return parsed.data;
}

/** Reads and parses a playbook file; a missing file is AgentDeskError('not_found'). */
export async function loadPlaybookFile(path: string, options: ParsePlaybookOptions = {}): Promise<Playbook> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AgentDeskError('not_found', `playbook not found: ${path}`, { path });
    const reason = error instanceof Error ? error.message : String(error);
    throw new AgentDeskError('invalid_params', `cannot read playbook ${path}: ${reason}`, { path });
  }
  return parsePlaybook(text, { source: path, ...options });
}

/** YAML text to plain data; syntax errors carry their line:column. */
function parseYaml(text: string, source: string | undefined): unknown {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length === 0) {
    const data = toPlainData(doc);
    if (typeof data === 'string') throw invalidPlaybook('invalid playbook YAML', [{ path: '(root)', message: data }], source);
    if (data.value === null || data.value === undefined) {
      throw invalidPlaybook('invalid playbook', [{ path: '(root)', message: 'the playbook is empty' }], source);
    }
    return data.value;
  }
  const issues = doc.errors.map((error): Issue => {
    const pos = error.linePos?.[0];
    // The yaml message repeats the position and a code excerpt after " at line"; keep the gist.
    const gist = error.message.split(/ at line \d+/)[0] ?? error.message;
    return { path: pos === undefined ? '(root)' : `line ${pos.line}:${pos.col}`, message: gist };
  });
  const first = doc.errors[0]?.linePos?.[0];
  throw invalidPlaybook('invalid playbook YAML', issues, source, first && { line: first.line, col: first.col });
}

/** The document as plain data, or why it cannot be (an alias bomb, an alias that contains itself). */
function toPlainData(doc: ReturnType<typeof parseDocument>): { value: unknown } | string {
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const cycle = cyclePath(value);
  // A cycle would send every later walk (schema, templates, the trace) into endless recursion.
  return cycle === undefined ? { value } : `recursive alias: the value at ${cycle} contains itself`;
}

/** `a.b[2]` of the first node found inside itself, or undefined for a tree. */
function cyclePath(root: unknown): string | undefined {
  const onPath = new Set<object>();
  const visit = (value: unknown, at: string): string | undefined => {
    if (typeof value !== 'object' || value === null) return undefined;
    if (onPath.has(value)) return at === '' ? '(root)' : at;
    onPath.add(value);
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [`${at}[${i}]`, v])
      : Object.entries(value).map(([k, v]) => [at === '' ? k : `${at}.${k}`, v]);
    for (const [childAt, child] of entries) {
      const found = visit(child, childAt);
      if (found !== undefined) return found;
    }
    onPath.delete(value);
    return undefined;
  };
  return visit(root, '');
}

/** Steps naming a capability no registered tool provides: the router could never resolve them. */
function capabilityIssues(raw: unknown, known: (capability: string) => boolean): Issue[] {
  const steps = (raw as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((step, i): Issue[] => {
    const capability = (step as { capability?: unknown } | null)?.capability;
    if (typeof capability !== 'string' || capability === '' || known(capability)) return [];
    const message = `unknown capability ${JSON.stringify(capability)}: no registered tool provides it (tools.catalog lists them)`;
    return [{ path: `steps[${i}].capability`, message }];
  });
}

/** What a tool registry offers playbook validation: tool inputs and the capabilities tools provide. */
export function registryChecks(registry: {
  get(name: string): { input: z.ZodType } | undefined;
  list(): readonly { capabilities: readonly string[] }[];
}): Pick<ParsePlaybookOptions, 'toolInput' | 'capabilityKnown'> {
  return {
    toolInput: (name) => registry.get(name)?.input,
    capabilityKnown: (capability) => registry.list().some((tool) => tool.capabilities.includes(capability)),
  };
}

function invalidPlaybook(what: string, issues: Issue[], source: string | undefined, extra: Record<string, unknown> = {}): AgentDeskError {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  const header = `${what}${source === undefined ? '' : ` ${source}`} (${count}):`;
  return new AgentDeskError('invalid_playbook', `${header}\n${describeIssues(issues)}`, { ...extra, issues });
}
