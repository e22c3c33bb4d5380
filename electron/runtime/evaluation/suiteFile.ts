import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { AgentDeskError, describeIssues, issuesFromZod } from '../errors.js';

type Parser<T> = {
  safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
};

/** A suite folder's `suite.yaml` (or `.yml`), if it has one. */
export function suiteFileIn(dir: string): string | undefined {
  return ['suite.yaml', 'suite.yml'].map((n) => path.join(dir, n)).find((f) => existsSync(f));
}

/** The `kind:` a suite folder's suite.yaml declares (security, grounding), if any. */
export function suiteKind(dir: string): string | undefined {
  const file = suiteFileIn(dir);
  const raw = file ? (readYamlFile(file) as { kind?: unknown } | null) : null;
  return typeof raw?.kind === 'string' ? raw.kind : undefined;
}

/** Reads one YAML file of a suite; bad YAML is an `invalid_params` error naming the file. */
export function readYamlFile(file: string): unknown {
  try {
    return parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AgentDeskError('invalid_params', `${file}: not valid YAML (${(error as Error).message})`);
  }
}

/** Reads and validates one YAML file; a bad one is an `invalid_params` error naming the file and field. */
export function parseSuiteFile<T>(file: string, schema: Parser<T>): T {
  const parsed = schema.safeParse(readYamlFile(file));
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error.issues);
  throw new AgentDeskError('invalid_params', `${file}:\n${describeIssues(issues)}`, { file, issues });
}
