import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

// Where hard links are unsupported, exclusive create falls back to check-then-rename.
const NO_LINK_CODES = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Writes `data` to `target` so readers see the old file or the new one, never a half-written
 * one: a temp file in the same directory, fsync, then rename (or link, when `exclusive`).
 * Returns false when `exclusive` and the target already exists (nothing is written then).
 */
export async function writeFileAtomically(target: string, data: Uint8Array, options: { exclusive: boolean }): Promise<boolean> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const keepMode = options.exclusive ? undefined : await modeOf(target);
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (keepMode !== undefined) await fs.chmod(temp, keepMode);
    if (!options.exclusive) {
      await fs.rename(temp, target);
      return true;
    }
    return await linkExclusively(temp, target);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** The temp files `writeFileAtomically` makes for `target`: `.<name>.<12 hex>.tmp` beside it. */
const TEMP_SUFFIX = /^\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temp files a killed write of `target` left beside it (a finished or aborted write
 * removes its own). Returns how many were removed; a missing directory means none.
 */
export async function removeLeftoverTemps(target: string): Promise<number> {
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}`;
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const leftovers = names.filter((name) => name.startsWith(prefix) && TEMP_SUFFIX.test(name.slice(prefix.length)));
  await Promise.all(leftovers.map((name) => fs.rm(path.join(dir, name), { force: true })));
  return leftovers.length;
}

/** link() refuses an existing target atomically, unlike rename(). */
async function linkExclusively(temp: string, target: string): Promise<boolean> {
  try {
    await fs.link(temp, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_LINK_CODES.has(code)) throw error;
    if ((await fs.lstat(target).catch(() => undefined)) !== undefined) return false;
    await fs.rename(temp, target);
    return true;
  }
}

/** Permission bits of an existing file, so an overwrite keeps them. */
async function modeOf(target: string): Promise<number | undefined> {
  const stat = await fs.stat(target).catch(() => undefined);
  return stat?.isFile() ? stat.mode & 0o7777 : undefined;
}
