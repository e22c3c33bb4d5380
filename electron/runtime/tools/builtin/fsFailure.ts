import { ToolError } from '../types.js';

// Transient conditions where the same call may well succeed a moment later.
const TRANSIENT_CODES = new Set(['EBUSY', 'EAGAIN', 'EMFILE', 'ENFILE', 'ETIMEDOUT']);

const EXPLANATIONS: Record<string, string> = {
  ENOENT: 'does not exist',
  EACCES: 'is not accessible (permission denied)',
  EPERM: 'cannot be changed (operation not permitted)',
  EISDIR: 'is a directory',
  ENOTDIR: 'has a parent that is not a directory',
  ENOTEMPTY: 'is a directory that is not empty',
  ENOSPC: 'cannot be written: the disk is full',
  EROFS: 'is on a read-only file system',
};

/** Turns a Node fs error into a ToolError naming the workspace path and what went wrong. */
export function toolErrorFromFs(error: unknown, relativePath: string, action: string): ToolError {
  if (error instanceof ToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const explanation = EXPLANATIONS[code];
  const message = explanation
    ? `cannot ${action} ${relativePath}: it ${explanation}`
    : `cannot ${action} ${relativePath}: ${error instanceof Error ? error.message : String(error)}`;
  return new ToolError(message, TRANSIENT_CODES.has(code), code === '' ? 'fs_error' : code.toLowerCase());
}

/** Throws a ToolError when the task was paused or cancelled before the call started. */
export function ensureNotAborted(signal: AbortSignal, action: string): void {
  if (signal.aborted) throw new ToolError(`${action} was cancelled before it started`, false, 'aborted');
}
