import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes a file so readers see the old bytes or the new, never a torn file: a temp file in the
 * same folder (created with `mode`), fsync, then rename — or, when `exclusive`, a hard link
 * that fails if the target exists (returns false then; two creators never overwrite each other).
 */
export function writeFileAtomicSync(target: string, bytes: Uint8Array, options: { mode: number; exclusive?: boolean }): boolean {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', options.mode);
  try {
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, options.mode); // the umask may have narrowed the mode; state it exactly
    if (!options.exclusive) {
      renameSync(temp, target);
      return true;
    }
    try {
      linkSync(temp, target);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  } finally {
    rmSync(temp, { force: true });
  }
}
