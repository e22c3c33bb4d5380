import path from 'node:path';
import { observed, type Observation } from './measure.js';

/** A check path as an absolute path: relative ones resolve against the workspace. */
export function resolveInWorkspace(workspace: string, target: string): string {
  return path.resolve(workspace, target);
}

/** True for errors that mean "there is no such file". */
export function isMissingFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** A file error as a check output: `not found: <path>` or the system message. */
export function describeFileError(error: unknown, target: string): string {
  if (isMissingFile(error)) return `not found: ${target}`;
  return error instanceof Error ? error.message : String(error);
}

/** A failed observation of a file that could not be read: coded when missing, else the system's words. */
export function fileErrorObservation(error: unknown, target: string): Observation {
  const output = describeFileError(error, target);
  return isMissingFile(error)
    ? observed(false, output, 'check.notFound', { path: target })
    : observed(false, output, 'text.verbatim', {}, output);
}

/** A failed observation of a path refused outside the workspace. */
export function refusedObservation(refusal: string): Observation {
  return observed(false, refusal, 'text.verbatim', {}, refusal);
}
