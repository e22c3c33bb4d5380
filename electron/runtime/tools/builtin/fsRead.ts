import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { ToolError, type Tool } from '../types.js';
import { MIB } from './byteSize.js';
import { ensureNotAborted, toolErrorFromFs } from './fsFailure.js';
import { classifyPathCall } from './pathCallClassification.js';
import { resolveWorkspacePath } from './workspacePath.js';
import { CAPABILITIES } from '../capabilities.js';
import { previewSummary } from '../previewSummary.js';

/** Arguments of `fs.read`. */
export const FsReadInputSchema = z
  .object({
    path: z.string().min(1).describe('File path relative to the task workspace.'),
    encoding: z.enum(['utf8', 'base64']).default('utf8').describe('Return the content as utf8 text, or as base64 for binary files.'),
    maxBytes: z
      .number()
      .int()
      .positive()
      .max(20 * MIB)
      .default(MIB)
      .describe('Return at most this many bytes of content; bytes and sha256 still cover the whole file.'),
  })
  .strict();
/** Validated `fs.read` arguments. */
export type FsReadArgs = z.infer<typeof FsReadInputSchema>;

/** What `fs.read` returns. */
export interface FsReadOutput {
  path: string;
  content: string;
  /** Size of the whole file. */
  bytes: number;
  /** SHA-256 (hex) of the whole file, even when the content is truncated. */
  sha256: string;
  truncated: boolean;
}

/** Reads one file of the task workspace. */
export const fsReadTool: Tool<FsReadArgs> = {
  name: 'fs.read',
  title: 'Read file',
  description: 'Reads a file in the task workspace and returns its content, size and SHA-256.',
  tier: 'api',
  capabilities: [CAPABILITIES.fileRead],
  risk: 'read',
  readOnly: true,
  idempotent: true,
  input: FsReadInputSchema,
  classify: (args, ctx) =>
    classifyPathCall(ctx.workspace, args.path, { risks: ['read'], readOnly: true, idempotent: true }, (t) =>
      previewSummary(`Read ${t.relative}`, 'preview.read', { path: t.relative }),
    ),
  availability: () => ({ available: true }),
  async execute(args, ctx): Promise<FsReadOutput> {
    ensureNotAborted(ctx.signal, `reading ${args.path}`);
    const target = resolveWorkspacePath(ctx.workspace, args.path);
    try {
      const { head, bytes, sha256 } = await readHeadAndDigest(target.absolute, args.maxBytes, ctx.signal);
      const truncated = bytes > head.length;
      return { path: target.relative, content: decode(head, args.encoding, truncated), bytes, sha256, truncated };
    } catch (error) {
      if (ctx.signal.aborted) throw new ToolError(`reading ${target.relative} was cancelled`, false, 'aborted');
      throw toolErrorFromFs(error, target.relative, 'read');
    }
  },
};

/** One pass over the file: hashes all of it, keeps the first `maxBytes`. */
async function readHeadAndDigest(
  absolute: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ head: Buffer; bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  for await (const chunk of createReadStream(absolute, { signal }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (keptBytes < maxBytes) {
      const part = chunk.subarray(0, maxBytes - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
  }
  return { head: Buffer.concat(kept), bytes, sha256: hash.digest('hex') };
}

function decode(head: Buffer, encoding: FsReadArgs['encoding'], truncated: boolean): string {
  if (encoding === 'base64') return head.toString('base64');
  // A cut may split a multi-byte character; the decoder holds back the incomplete tail.
  return truncated ? new StringDecoder('utf8').write(head) : head.toString('utf8');
}
