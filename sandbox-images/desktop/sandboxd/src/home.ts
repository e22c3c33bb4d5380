import { homedir } from 'node:os';
import path from 'node:path';
import { SandboxdFailure } from './failure.js';

/** The only folder files.* and exec.run may touch (besides /tmp for exec). */
export const HOME = process.env.HOME ?? homedir();

/** Resolves `target` against the home folder; refuses anything that leaves it. */
export function insideHome(target: string): string {
  const resolved = path.resolve(HOME, target);
  if (resolved !== HOME && !resolved.startsWith(HOME + path.sep))
    throw new SandboxdFailure('outside_home', `${target} is outside the home folder ${HOME}`);
  return resolved;
}
