import fs from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import type { ApprovalPreview, ServerText } from '../../../contract/index.js';
import { byteSizeText, formatByteSize } from './byteSize.js';
import { clipForPreview, DIFF_PREVIEW_LIMIT, looksBinary } from './previewText.js';
import type { WorkspacePath } from './workspacePath.js';
import { previewSummary } from '../previewSummary.js';

// Diffing is quadratic in the worst case and classify() is synchronous: bound input and time.
const MAX_DIFF_INPUT = 512 * 1024;
const DIFF_TIMEOUT_MS = 150;

/** The file a write would replace, read only when small enough to compare and diff. */
type CurrentFile = { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'large'; size: number } | { kind: 'small'; bytes: Buffer };

/** What a write will do: a summary, and a unified diff against the current file or the new head. */
export function writePreview(target: WorkspacePath, data: Buffer, mode: 'overwrite' | 'create'): ApprovalPreview {
  const write = `Write ${formatByteSize(data.length)} to ${target.relative}`;
  const params = { size: byteSizeText(data.length), path: target.relative };
  const summary = (english: string, code: string, extra: Record<string, ServerText> = {}) =>
    previewSummary(`${write}${english}`, code, { ...params, ...extra });
  const current = readCurrent(target.absolute);
  switch (current.kind) {
    case 'missing':
      return { ...summary(' (new file)', 'preview.writeNew'), body: contentHead(data) };
    case 'unreadable':
      return summary(' (replaces something that could not be read)', 'preview.writeUnreadable');
    case 'large':
      return mode === 'create'
        ? summary(' (create only: fails unless the existing file is identical)', 'preview.writeCreateOnly')
        : summary(` (replaces ${formatByteSize(current.size)}; too large to diff)`, 'preview.writeReplacesLarge', {
            old: byteSizeText(current.size),
          });
    case 'small':
      if (current.bytes.equals(data)) return summary(' (no change)', 'preview.writeNoChange');
      if (mode === 'create') return summary(' (create only: fails, a different file exists)', 'preview.writeCreateConflict');
      return {
        ...summary(` (replaces ${formatByteSize(current.bytes.length)})`, 'preview.writeReplaces', {
          old: byteSizeText(current.bytes.length),
        }),
        body: diffBody(target.relative, current.bytes, data),
      };
  }
}

function readCurrent(absolute: string): CurrentFile {
  try {
    const stat = fs.statSync(absolute, { throwIfNoEntry: false });
    if (stat === undefined) return { kind: 'missing' };
    if (!stat.isFile()) return { kind: 'unreadable' };
    if (stat.size > MAX_DIFF_INPUT) return { kind: 'large', size: stat.size };
    return { kind: 'small', bytes: fs.readFileSync(absolute) };
  } catch {
    return { kind: 'unreadable' };
  }
}

function contentHead(data: Buffer): string {
  if (looksBinary(data)) return `(binary content, ${formatByteSize(data.length)})`;
  return clipForPreview(data.subarray(0, DIFF_PREVIEW_LIMIT * 4).toString('utf8'), DIFF_PREVIEW_LIMIT);
}

function diffBody(relative: string, before: Buffer, after: Buffer): string {
  const sizes = `${formatByteSize(before.length)} → ${formatByteSize(after.length)}`;
  if (looksBinary(before) || looksBinary(after)) return `(binary content: ${sizes})`;
  if (after.length > MAX_DIFF_INPUT) return `(too large to diff: ${sizes})`;
  const patch = createTwoFilesPatch(
    `a/${relative}`,
    `b/${relative}`,
    before.toString('utf8'),
    after.toString('utf8'),
    undefined,
    undefined,
    { timeout: DIFF_TIMEOUT_MS },
  );
  return patch === undefined ? `(too many changes to diff: ${sizes})` : clipForPreview(patch, DIFF_PREVIEW_LIMIT);
}
