import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, type Tool } from '../types.js';
import { removeLeftoverTemps, writeFileAtomically } from './atomicWrite.js';
import { ensureNotAborted, toolErrorFromFs } from './fsFailure.js';
import { writePreview } from './fsWritePreview.js';
import { classifyPathCall } from './pathCallClassification.js';
import { resolveWorkspacePath, type WorkspacePath } from './workspacePath.js';
import { CAPABILITIES } from '../capabilities.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Arguments of `fs.write`. */
export const FsWriteInputSchema = z
  .object({
    path: z.string().min(1).describe('File path relative to the task workspace; missing parent directories are created.'),
    content: z
      .string()
      .max(64 * 1024 * 1024)
      .describe('The whole new content of the file.'),
    encoding: z.enum(['utf8', 'base64']).default('utf8').describe('How content is encoded: utf8 text, or base64 for binary data.'),
    mode: z
      .enum(['overwrite', 'create'])
      .default('overwrite')
      .describe('overwrite replaces an existing file; create fails if a different file already exists.'),
  })
  .strict()
  .superRefine((args, ctx) => {
    if (args.encoding === 'base64' && !isBase64(args.content)) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'content is not valid base64' });
    }
  });
/** Validated `fs.write` arguments. */
export type FsWriteArgs = z.infer<typeof FsWriteInputSchema>;

/** What `fs.write` returns. */
export interface FsWriteOutput {
  path: string;
  bytes: number;
  sha256: string;
  /** False when the file existed before (including an identical re-run). */
  created: boolean;
}

/** Writes one file of the task workspace atomically. */
export const fsWriteTool: Tool<FsWriteArgs> = {
  name: 'fs.write',
  title: 'Write file',
  description:
    'Writes a whole file in the task workspace atomically, creating parent directories. Writing the same content twice gives the same result.',
  tier: 'api',
  capabilities: [CAPABILITIES.fileWrite],
  risk: 'write',
  readOnly: false,
  idempotent: true,
  input: FsWriteInputSchema,
  classify: (args, ctx) =>
    classifyPathCall(ctx.workspace, args.path, { risks: ['write'], readOnly: false, idempotent: true }, (t) =>
      writePreview(t, contentBytes(args), args.mode),
    ),
  availability: () => ({ available: true }),
  async execute(args, ctx): Promise<FsWriteOutput> {
    ensureNotAborted(ctx.signal, `writing ${args.path}`);
    const target = resolveWorkspacePath(ctx.workspace, args.path);
    if (target.relative === '.') throw new ToolError('cannot write the workspace root itself; name a file inside it', false, 'eisdir');
    const data = contentBytes(args);
    const result = { path: target.relative, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    try {
      await fs.mkdir(path.dirname(target.absolute), { recursive: true });
      const existing = await fs.lstat(target.absolute).catch(() => undefined);
      if (existing?.isDirectory()) {
        throw new ToolError(`cannot write ${target.relative}: it is a directory`, false, 'eisdir');
      }
      if (args.mode === 'create' && existing !== undefined) return { ...result, created: await refuseUnlessSame(target, data) };
      const written = await writeFileAtomically(target.absolute, data, { exclusive: args.mode === 'create' });
      // Lost a race with another writer in create mode: same rule as an existing file.
      if (!written) return { ...result, created: await refuseUnlessSame(target, data) };
      return { ...result, created: existing === undefined };
    } catch (error) {
      throw toolErrorFromFs(error, target.relative, 'write');
    }
  },
  // A write killed between its temp file and the rename leaves the temp file: recovery removes it.
  async cleanUpInterrupted(args, ctx): Promise<void> {
    await removeLeftoverTemps(resolveWorkspacePath(ctx.workspace, args.path).absolute);
  },
};

/** Create mode on an existing file: an identical file is a re-run (exactly-once), anything else an error. */
async function refuseUnlessSame(target: WorkspacePath, data: Buffer): Promise<false> {
  const current = await fs.readFile(target.absolute).catch(() => undefined);
  if (current?.equals(data)) return false;
  throw new ToolError(
    `cannot create ${target.relative}: a different file already exists; use mode "overwrite" to replace it`,
    false,
    'eexist',
  );
}

function contentBytes(args: FsWriteArgs): Buffer {
  return Buffer.from(args.content, args.encoding);
}

function isBase64(content: string): boolean {
  const compact = content.replace(/\s+/g, '');
  return compact.length % 4 === 0 && BASE64.test(compact);
}
