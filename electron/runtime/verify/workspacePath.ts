import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A check path inside the workspace, or why it may not be read. */
export type ConfinedPath = { path: string } | { refusal: string };

/**
 * Resolves a file check's path inside the task workspace. Absolute paths and `..` segments are
 * refused outright; a path that resolves through a symlink to outside the workspace is refused
 * too, so a check can never read (or reveal the existence of) a file the task cannot reach.
 */
export async function confineToWorkspace(workspace: string, target: string): Promise<ConfinedPath> {
  if (path.isAbsolute(target) || path.win32.isAbsolute(target)) {
    return { refusal: `refused: ${target} is an absolute path; file checks take a path relative to the task workspace` };
  }
  if (target.split(/[\\/]+/).includes('..')) {
    return { refusal: `refused: ${target} climbs out with ".."; file checks stay inside the task workspace` };
  }
  const lexical = path.resolve(workspace, target);
  const root = await realpathOr(workspace, path.resolve(workspace));
  const real = await realpathOfDeepestExisting(lexical);
  if (real === undefined) return { refusal: `refused: ${target} goes through a symlink whose target is missing` };
  if (!isInside(root, real)) {
    return { refusal: `refused: ${target} leads outside the task workspace (through a symlink to ${real})` };
  }
  return { path: lexical };
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The real path of `file`, or of its deepest existing ancestor joined with the missing rest;
 * undefined for a dangling symlink, whose target could lie anywhere.
 */
async function realpathOfDeepestExisting(file: string): Promise<string | undefined> {
  const missing: string[] = [];
  let current = file;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch {
      if (await exists(current)) return undefined;
      const parent = path.dirname(current);
      if (parent === current) return file;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

async function realpathOr(file: string, fallback: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return fallback;
  }
}
