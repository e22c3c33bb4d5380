import { readdirSync } from 'node:fs';
import path from 'node:path';
import { AgentDeskError } from '../../errors.js';
import { parseSuiteFile, suiteKind } from '../suiteFile.js';
import { SecurityCaseSchema, SecuritySuiteSchema, type SecurityCase, type SecuritySuite } from './securityCase.js';

/** A security suite read from a folder: `suite.yaml` with `kind: security`, and one `*.yaml` per case. */
export interface LoadedSecuritySuite {
  suite: SecuritySuite;
  cases: SecurityCase[];
}

/** Whether a suite folder is a security suite (its suite.yaml says `kind: security`). */
export function isSecuritySuite(dir: string): boolean {
  return suiteKind(dir) === 'security';
}

/** Reads and validates every case; a bad file is an `invalid_params` error naming the file and field. */
export function loadSecuritySuite(dir: string): LoadedSecuritySuite {
  const names = readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort();
  const suiteFile = names.find((n) => /^suite\.ya?ml$/.test(n));
  if (!suiteFile) throw new AgentDeskError('invalid_params', `${dir} has no suite.yaml with kind: security`);
  const suite = parseSuiteFile(path.join(dir, suiteFile), SecuritySuiteSchema);
  const cases = names.filter((n) => n !== suiteFile).map((n) => parseSuiteFile(path.join(dir, n), SecurityCaseSchema));
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.name)) throw new AgentDeskError('invalid_params', `security suite ${dir}: two cases are named "${c.name}"`);
    seen.add(c.name);
  }
  return { suite, cases };
}
