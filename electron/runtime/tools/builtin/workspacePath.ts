import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from '../types.js';

/** A user path resolved inside the task workspace. */
export interface WorkspacePath {
  /** Absolute path on disk, under the workspace as given (symlinks not resolved). */
  absolute: string;
  /** Workspace-relative posix path, `.` for the root: the subject policy rules match. */
  relative: string;
}

/** The outcome of checking a path without throwing (classify() must not throw). */
export type WorkspacePathCheck = ({ ok: true } & WorkspacePath) | { ok: false; absolute: string; reason: string };

/**
 * Checks that `userPath` stays inside `workspace`: lexically (no `..` or absolute escape) and
 * physically (the deepest existing ancestor, symlinks resolved, is inside the real workspace).
 */
export function checkWorkspacePath(workspace: string, userPath: string): WorkspacePathCheck {
  const root = path.resolve(workspace);
  const absolute = path.resolve(root, userPath);
  const refuse = (reason: string): WorkspacePathCheck => ({ ok: false, absolute, reason });
  if (userPath.includes('\0')) return refuse(`path "${userPath}" contains a NUL byte`);

  const realRoot = realpathOrUndefined(root);
  if (realRoot === undefined) return refuse(`the task workspace ${root} does not exist`);
  // Accept both spellings of the workspace (e.g. /tmp/… and /private/tmp/… on macOS).
  const relative = relativeInside(root, absolute) ?? relativeInside(realRoot, absolute);
  if (relative === undefined) {
    return refuse(
      path.isAbsolute(userPath)
        ? `path "${userPath}" is outside the task workspace; use a path inside ${root}`
        : `path "${userPath}" escapes the task workspace through ".."; use a path inside it`,
    );
  }

  const symlinkProblem = symlinkEscape(realRoot, relative, userPath);
  if (symlinkProblem !== undefined) return refuse(symlinkProblem);
  return { ok: true, absolute: path.join(root, relative), relative: toPosix(relative) };
}

/** Resolves `userPath` inside `workspace`, or throws a non-retryable ToolError saying why not. */
export function resolveWorkspacePath(workspace: string, userPath: string): WorkspacePath {
  const check = checkWorkspacePath(workspace, userPath);
  if (!check.ok) throw new ToolError(check.reason, false, 'path_outside_workspace');
  return { absolute: check.absolute, relative: check.relative };
}

/** `target` relative to `root` when inside it ('' for the root itself), else undefined. */
function relativeInside(root: string, target: string): string | undefined {
  const relative = path.relative(root, target);
  if (relative === '') return '';
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return undefined;
  }
  return relative;
}

/** Why the path leaves the workspace through a symlink, or undefined when it does not. */
function symlinkEscape(realRoot: string, relative: string, userPath: string): string | undefined {
  let existing = path.join(realRoot, relative);
  // lstat, not exists: a dangling symlink must be found, not walked past.
  while (fs.lstatSync(existing, { throwIfNoEntry: false }) === undefined) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const real = realpathOrUndefined(existing);
  if (real === undefined) {
    return `path "${userPath}" goes through a symlink whose target does not exist; refusing to follow it`;
  }
  if (relativeInside(realRoot, real) === undefined) {
    return `path "${userPath}" goes through a symlink to ${real}, outside the task workspace`;
  }
  return undefined;
}

function realpathOrUndefined(target: string): string | undefined {
  try {
    return fs.realpathSync(target);
  } catch {
    return undefined;
  }
}

function toPosix(relative: string): string {
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}
