import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxdParams, SandboxdResult } from '../../../../electron/contract/sandboxProtocol.js';
import { insideHome } from './home.js';

/** files.read: a file under home as UTF-8 or base64. */
export async function readHomeFile(p: Required<SandboxdParams<'files.read'>>): Promise<SandboxdResult<'files.read'>> {
  const bytes = await readFile(insideHome(p.path));
  return { data: bytes.toString(p.encoding), size: bytes.length };
}

/** files.write: creates parent folders; only under home. */
export async function writeHomeFile(p: Required<SandboxdParams<'files.write'>>): Promise<SandboxdResult<'files.write'>> {
  const target = insideHome(p.path);
  const bytes = Buffer.from(p.data, p.encoding);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, bytes);
  return { path: target, size: bytes.length };
}

/** files.stat: existence, size and SHA-256 of a file under home. */
export async function statHomeFile(p: SandboxdParams<'files.stat'>): Promise<SandboxdResult<'files.stat'>> {
  const target = insideHome(p.path);
  try {
    const info = await stat(target);
    if (!info.isFile()) return { exists: true, size: info.size };
    const sha256 = createHash('sha256')
      .update(await readFile(target))
      .digest('hex');
    return { exists: true, size: info.size, sha256 };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    throw error;
  }
}
