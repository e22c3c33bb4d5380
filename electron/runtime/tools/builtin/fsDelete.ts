import fs from 'node:fs/promises';
import { z } from 'zod';
import { ToolError, type Tool } from '../types.js';
import { deletePreview } from './fsDeletePreview.js';
import { ensureNotAborted, toolErrorFromFs } from './fsFailure.js';
import { classifyPathCall } from './pathCallClassification.js';
import { resolveWorkspacePath } from './workspacePath.js';
import { CAPABILITIES } from '../capabilities.js';

/** Arguments of `fs.delete`. */
export const FsDeleteInputSchema = z
  .object({
    path: z.string().min(1).describe('File or directory path relative to the task workspace.'),
    recursive: z.boolean().default(false).describe('Required to delete a directory and everything in it.'),
  })
  .strict();
/** Validated `fs.delete` arguments. */
export type FsDeleteArgs = z.infer<typeof FsDeleteInputSchema>;

/** What `fs.delete` returns; `deleted` is false when there was nothing to delete. */
export interface FsDeleteOutput {
  path: string;
  deleted: boolean;
}

/** Deletes a file or directory of the task workspace; deleting what is already gone succeeds. */
export const fsDeleteTool: Tool<FsDeleteArgs> = {
  name: 'fs.delete',
  title: 'Delete file',
  description:
    'Deletes a file, symlink or (with recursive) a directory in the task workspace. Deleting a missing path succeeds with deleted: false.',
  tier: 'api',
  capabilities: [CAPABILITIES.fileDelete],
  risk: 'delete',
  readOnly: false,
  idempotent: true,
  input: FsDeleteInputSchema,
  classify: (args, ctx) =>
    classifyPathCall(ctx.workspace, args.path, { risks: ['delete'], readOnly: false, idempotent: true }, (t) => deletePreview(t)),
  availability: () => ({ available: true }),
  async execute(args, ctx): Promise<FsDeleteOutput> {
    ensureNotAborted(ctx.signal, `deleting ${args.path}`);
    const target = resolveWorkspacePath(ctx.workspace, args.path);
    if (target.relative === '.') {
      throw new ToolError('refusing to delete the workspace root; name a path inside it', false, 'workspace_root');
    }
    try {
      // lstat: a symlink is deleted itself, never what it points to.
      const stat = await fs.lstat(target.absolute).catch(missingAsUndefined);
      if (stat === undefined) return { path: target.relative, deleted: false };
      if (stat.isDirectory()) {
        if (!args.recursive) {
          throw new ToolError(`${target.relative} is a directory; pass recursive: true to delete it with its contents`, false, 'eisdir');
        }
        await fs.rm(target.absolute, { recursive: true });
      } else {
        await fs.unlink(target.absolute);
      }
      return { path: target.relative, deleted: true };
    } catch (error) {
      throw toolErrorFromFs(error, target.relative, 'delete');
    }
  },
};

function missingAsUndefined(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
  throw error;
}
