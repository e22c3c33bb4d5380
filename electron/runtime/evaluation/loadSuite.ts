import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { AgentDeskError, describeIssues, issuesFromZod } from '../errors.js';
import { EvalSuiteSchema, EvalTaskSchema, type EvalSuite, type EvalTask } from './evalTask.js';

/** A suite read from a folder: `suite.yaml` (optional) and one `*.yaml` per task, by file name. */
export interface LoadedSuite {
  suite: EvalSuite;
  tasks: EvalTask[];
}

/** Reads and validates every task file; a bad file is an `invalid_params` error naming the file and field. */
export function loadSuite(dir: string): LoadedSuite {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.ya?ml$/.test(n))
      .sort();
  } catch (error) {
    throw new AgentDeskError('not_found', `cannot read eval suite ${dir}: ${(error as Error).message}`);
  }
  const suiteFile = names.find((n) => /^suite\.ya?ml$/.test(n));
  const suite = suiteFile ? parseFile(path.join(dir, suiteFile), EvalSuiteSchema) : EvalSuiteSchema.parse({});
  const tasks = names.filter((n) => n !== suiteFile).map((n) => parseFile(path.join(dir, n), EvalTaskSchema));
  if (tasks.length === 0) throw new AgentDeskError('invalid_params', `eval suite ${dir} has no task files (*.yaml)`);
  const seen = new Set<string>();
  for (const task of tasks) {
    if (seen.has(task.name)) throw new AgentDeskError('invalid_params', `eval suite ${dir}: two tasks are named "${task.name}"`);
    seen.add(task.name);
  }
  return { suite, tasks };
}

function parseFile<T>(
  file: string,
  schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
): T {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AgentDeskError('invalid_params', `${file}: not valid YAML (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('invalid_params', `${file}:\n${describeIssues(issues)}`, { file, issues });
  }
  return parsed.data;
}
