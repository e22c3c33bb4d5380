import { z } from 'zod';
import { ServerTextSchema } from './serverText.js';

const base = {
  /** A human name for the check; defaults to its type and target. */
  name: z.string().optional(),
  /** Run inside the task's desktop sandbox (command_exit and file checks; paths under its home). */
  sandbox: z.boolean().optional(),
};

/** A file (relative to the task workspace) exists, or with `exists: false` is absent. */
export const FileExistsCheckSchema = z.object({
  ...base,
  type: z.literal('file_exists'),
  path: z.string().min(1),
  exists: z.boolean().default(true),
});
/** A file's SHA-256 equals the expected hex digest. */
export const FileSha256CheckSchema = z.object({
  ...base,
  type: z.literal('file_sha256'),
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/i, 'expected 64 hex characters'),
});
/** A file contains a literal text or matches a regular expression. */
export const FileContainsCheckSchema = z
  .object({
    ...base,
    type: z.literal('file_contains'),
    path: z.string().min(1),
    text: z.string().optional(),
    pattern: z.string().optional(),
  })
  .refine((c) => c.text !== undefined || c.pattern !== undefined, {
    message: 'one of text or pattern is required',
    path: ['text'],
  });
/** An HTTP request answers with the expected status. */
export const HttpStatusCheckSchema = z.object({
  ...base,
  type: z.literal('http_status'),
  url: z.string().min(1),
  method: z.enum(['GET', 'HEAD']).default('GET'),
  status: z.union([z.number().int(), z.array(z.number().int()).min(1)]).default(200),
  timeoutMs: z.number().int().positive().default(10_000),
});
/** A JSONPath into a JSON document (a URL or a workspace file) exists or equals a value. */
export const JsonPathCheckSchema = z
  .object({
    ...base,
    type: z.literal('json_path'),
    url: z.string().optional(),
    file: z.string().optional(),
    path: z.string().min(1),
    equals: z.unknown().optional(),
    exists: z.boolean().optional(),
    timeoutMs: z.number().int().positive().default(10_000),
  })
  .refine((c) => (c.url === undefined) !== (c.file === undefined), {
    message: 'exactly one of url or file is required',
    path: ['url'],
  });
/** A command exits with the expected code (on the host for now). */
export const CommandExitCheckSchema = z.object({
  ...base,
  type: z.literal('command_exit'),
  command: z.array(z.string()).min(1),
  cwd: z.string().optional(),
  exitCode: z.number().int().default(0),
  timeoutMs: z.number().int().positive().default(30_000),
});

/** An acceptance check: the external signal that proves a task is done. */
export const AcceptanceCheckSchema = z.discriminatedUnion('type', [
  FileExistsCheckSchema,
  FileSha256CheckSchema,
  FileContainsCheckSchema,
  HttpStatusCheckSchema,
  JsonPathCheckSchema,
  CommandExitCheckSchema,
]);
/** An acceptance check. */
export type AcceptanceCheck = z.infer<typeof AcceptanceCheckSchema>;
/** The acceptance check type names. */
export type CheckType = AcceptanceCheck['type'];

/** The outcome of one check, recorded on the task and in the trace. */
export const CheckResultSchema = z.object({
  name: z.string(),
  /** A default `name` with words in it (`file_exists x (absent)`) as a catalog code. */
  nameText: ServerTextSchema.optional(),
  type: z.string(),
  passed: z.boolean(),
  /** What the check observed, e.g. the actual digest or the command's output tail. */
  output: z.string(),
  /** `output` as a catalog code, for the checks that have one. */
  outputText: ServerTextSchema.optional(),
  durationMs: z.number(),
});
/** A check result. */
export type CheckResult = z.infer<typeof CheckResultSchema>;
