import fs from 'node:fs';
import path from 'node:path';
import type { ApprovalPreview } from '../../../contract/index.js';
import { byteSizeText, formatByteSize } from './byteSize.js';
import type { WorkspacePath } from './workspacePath.js';
import { previewSummary } from '../previewSummary.js';

// Bounds the synchronous walk a preview may do; beyond it the count shows as "1000+".
const COUNT_LIMIT = 1000;
const LISTED_ENTRIES = 10;

/** What a delete will remove: the size of a file, or the entry count and a few names of a directory. */
export function deletePreview(target: WorkspacePath): ApprovalPreview {
  const stat = fs.lstatSync(target.absolute, { throwIfNoEntry: false });
  if (stat === undefined)
    return previewSummary(`Delete ${target.relative} (does not exist; nothing to do)`, 'preview.deleteMissing', { path: target.relative });
  if (stat.isSymbolicLink()) return previewSummary(`Delete symlink ${target.relative}`, 'preview.deleteSymlink', { path: target.relative });
  if (!stat.isDirectory())
    return previewSummary(`Delete ${target.relative} (${formatByteSize(stat.size)})`, 'preview.deleteFile', {
      path: target.relative,
      size: byteSizeText(stat.size),
    });

  const entries: string[] = [];
  try {
    collectEntries(target.absolute, target.relative, entries);
  } catch {
    return previewSummary(`Delete directory ${target.relative} (its contents could not be listed)`, 'preview.deleteDirUnlisted', {
      path: target.relative,
    });
  }
  const capped = entries.length > COUNT_LIMIT;
  const count = capped ? `${COUNT_LIMIT}+` : String(entries.length);
  const shown = entries.slice(0, LISTED_ENTRIES);
  const rest = capped ? 'many more' : `${entries.length - shown.length} more`;
  const more = entries.length > shown.length ? [`… and ${rest}`] : [];
  return {
    ...previewSummary(`Delete directory ${target.relative} and its ${count} entries`, 'preview.deleteDir', {
      path: target.relative,
      count,
    }),
    body: entries.length === 0 ? '(empty directory)' : [...shown, ...more].join('\n'),
  };
}

/** Collects up to COUNT_LIMIT + 1 entry paths, names sorted, without following symlinks. */
function collectEntries(absolute: string, relative: string, out: string[]): void {
  const dirents = fs.readdirSync(absolute, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const dirent of dirents) {
    if (out.length > COUNT_LIMIT) return;
    const entry = `${relative}/${dirent.name}`;
    out.push(dirent.isDirectory() ? `${entry}/` : entry);
    if (dirent.isDirectory()) collectEntries(path.join(absolute, dirent.name), entry, out);
  }
}
