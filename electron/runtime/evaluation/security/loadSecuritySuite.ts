import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { AgentDeskError, describeIssues, issuesFromZod } from '../../errors.js';
import { SecurityCaseSchema, SecuritySuiteSchema, type SecurityCase, type SecuritySuite } from './securityCase.js';

/** A security suite read from a folder: `suite.yaml` with `kind: security`, and one `*.yaml` per case. */
export interface LoadedSecuritySuite {
  suite: SecuritySuite;
  cases: SecurityCase[];
}

/** Whether a suite folder is a security suite (its suite.yaml says `kind: security`). */
export function isSecuritySuite(dir: string): boolean {
  const file = ['suite.yaml', 'suite.yml'].map((n) => path.join(dir, n)).find((f) => existsSync(f));
  if (!file) return false;
  const raw = readYaml(file) as { kind?: unknown } | null;
  return raw?.kind === 'security';
}

/** Reads and validates every case; a bad file is an `invalid_params` error naming the file and field. */
export function loadSecuritySuite(dir: string): LoadedSecuritySuite {
  const names = readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort();
  const suiteFile = names.find((n) => /^suite\.ya?ml$/.test(n));
  if (!suiteFile) throw new AgentDeskError('invalid_params', `${dir} has no suite.yaml with kind: security`);
  const suite = validate(path.join(dir, suiteFile), SecuritySuiteSchema);
  const cases = names.filter((n) => n !== suiteFile).map((n) => validate(path.join(dir, n), SecurityCaseSchema));
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.name)) throw new AgentDeskError('invalid_params', `security suite ${dir}: two cases are named "${c.name}"`);
    seen.add(c.name);
  }
  return { suite, cases };
}

function validate<T>(
  file: string,
  schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
): T {
  const parsed = schema.safeParse(readYaml(file));
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error.issues);
  throw new AgentDeskError('invalid_params', `${file}:\n${describeIssues(issues)}`, { file, issues });
}

function readYaml(file: string): unknown {
  try {
    return parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AgentDeskError('invalid_params', `${file}: not valid YAML (${(error as Error).message})`);
  }
}
