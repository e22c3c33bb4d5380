import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, type Tool } from '../types.js';
import { ensureNotAborted, toolErrorFromFs } from './fsFailure.js';
import { classifyPathCall } from './pathCallClassification.js';
import { resolveWorkspacePath } from './workspacePath.js';
import { CAPABILITIES } from '../capabilities.js';
import { previewSummary } from '../previewSummary.js';

/** Arguments of `fs.list`. */
export const FsListInputSchema = z
  .object({
    path: z.string().min(1).default('.').describe('Directory path relative to the task workspace.'),
    recursive: z.boolean().default(false).describe('Also list subdirectories (symlinks are listed, not followed).'),
    maxEntries: z
      .number()
      .int()
      .positive()
      .max(100_000)
      .default(1000)
      .describe('Stop after this many entries; the result then says truncated.'),
  })
  .strict();
/** Validated `fs.list` arguments. */
export type FsListArgs = z.infer<typeof FsListInputSchema>;

/** One directory entry, by workspace-relative posix path. */
export interface FsListEntry {
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  /** Bytes for files and symlinks; 0 for directories. */
  size: number;
}

/** What `fs.list` returns: entries sorted by path. */
export interface FsListOutput {
  entries: FsListEntry[];
  truncated: boolean;
}

/** Lists a directory of the task workspace. */
export const fsListTool: Tool<FsListArgs> = {
  name: 'fs.list',
  title: 'List directory',
  description: 'Lists files and directories in the task workspace, optionally recursively, sorted by path.',
  tier: 'api',
  capabilities: [CAPABILITIES.fileList],
  risk: 'read',
  readOnly: true,
  idempotent: true,
  input: FsListInputSchema,
  classify: (args, ctx) =>
    classifyPathCall(ctx.workspace, args.path, { risks: ['read'], readOnly: true, idempotent: true }, (t) =>
      previewSummary(
        `List ${t.relative}${args.recursive ? ' recursively' : ''}`,
        args.recursive ? 'preview.listRecursive' : 'preview.list',
        {
          path: t.relative,
        },
      ),
    ),
  availability: () => ({ available: true }),
  async execute(args, ctx): Promise<FsListOutput> {
    ensureNotAborted(ctx.signal, `listing ${args.path}`);
    const target = resolveWorkspacePath(ctx.workspace, args.path);
    try {
      const stat = await fs.stat(target.absolute);
      if (!stat.isDirectory()) {
        throw new ToolError(`${target.relative} is a file, not a directory; use fs.read to read it`, false, 'enotdir');
      }
      const entries: FsListEntry[] = [];
      // Collect one more than asked so we know whether anything was left out.
      await walk(target.absolute, target.relative, args.recursive, args.maxEntries + 1, entries, ctx.signal);
      const truncated = entries.length > args.maxEntries;
      const kept = entries.slice(0, args.maxEntries).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { entries: kept, truncated };
    } catch (error) {
      throw toolErrorFromFs(error, target.relative, 'list');
    }
  },
};

/** Depth-first, names sorted, so a truncated listing is the same every time. */
async function walk(
  absolute: string,
  relative: string,
  recursive: boolean,
  limit: number,
  out: FsListEntry[],
  signal: AbortSignal,
): Promise<void> {
  ensureNotAborted(signal, 'listing');
  const dirents = await fs.readdir(absolute, { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of dirents) {
    if (out.length >= limit) return;
    const entryAbsolute = path.join(absolute, dirent.name);
    const entryRelative = relative === '.' ? dirent.name : `${relative}/${dirent.name}`;
    const type = entryType(dirent);
    const size = type === 'dir' ? 0 : (await fs.lstat(entryAbsolute)).size;
    out.push({ path: entryRelative, type, size });
    if (recursive && type === 'dir') await walk(entryAbsolute, entryRelative, recursive, limit, out, signal);
  }
}

function entryType(dirent: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FsListEntry['type'] {
  if (dirent.isSymbolicLink()) return 'symlink';
  if (dirent.isDirectory()) return 'dir';
  if (dirent.isFile()) return 'file';
  return 'other';
}
