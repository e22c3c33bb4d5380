import { readdirSync } from 'node:fs';
import path from 'node:path';
import { AgentDeskError } from '../errors.js';
import { EvalSuiteSchema, EvalTaskSchema, type EvalSuite, type EvalTask } from './evalTask.js';
import { parseSuiteFile } from './suiteFile.js';

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
  const suite = suiteFile ? parseSuiteFile(path.join(dir, suiteFile), EvalSuiteSchema) : EvalSuiteSchema.parse({});
  const tasks = names.filter((n) => n !== suiteFile).map((n) => parseSuiteFile(path.join(dir, n), EvalTaskSchema));
  if (tasks.length === 0) throw new AgentDeskError('invalid_params', `eval suite ${dir} has no task files (*.yaml)`);
  const seen = new Set<string>();
  for (const task of tasks) {
    if (seen.has(task.name)) throw new AgentDeskError('invalid_params', `eval suite ${dir}: two tasks are named "${task.name}"`);
    seen.add(task.name);
  }
  return { suite, tasks };
}
