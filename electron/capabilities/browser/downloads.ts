import { closeSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Download } from 'playwright-core';
import { checkWorkspacePath } from '../../runtime/tools/builtin/workspacePath.js';

const FOLDER = 'downloads';
const MAX_COPIES = 1000;

/**
 * Saves a page's download as `downloads/<name>` inside the task workspace and returns that
 * workspace-relative path. The folder must be a real folder inside the workspace (a `downloads`
 * symlink pointing elsewhere is refused, the download cancelled); a name already taken gets
 * ` (1)`, ` (2)`… so two downloads of the same name never overwrite each other.
 */
export async function saveDownloadInWorkspace(download: Download, workspace: string): Promise<string | undefined> {
  const folder = confinedFolder(workspace);
  if (!folder) {
    await download.cancel().catch(() => undefined);
    return undefined;
  }
  const name =
    path
      .basename(download.suggestedFilename())
      .replace(/[^\w.\-() ]/g, '_')
      .replace(/^\.+/, '') || 'download';
  const reserved = reserveName(folder, name);
  if (!reserved) {
    await download.cancel().catch(() => undefined);
    return undefined;
  }
  await download.saveAs(path.join(folder, reserved)).catch(() => undefined);
  return path.posix.join(FOLDER, reserved);
}

/** `<workspace>/downloads`, created if missing, or undefined when it is a symlink or leads outside. */
function confinedFolder(workspace: string): string | undefined {
  const check = checkWorkspacePath(workspace, FOLDER);
  if (!check.ok) return undefined;
  const stat = lstatSync(check.absolute, { throwIfNoEntry: false });
  if (stat === undefined) mkdirSync(check.absolute);
  else if (!stat.isDirectory()) return undefined; // a symlink (even to a folder inside) or a file
  return check.absolute;
}

/** Creates the file exclusively under the first free name, so concurrent downloads cannot share one. */
function reserveName(folder: string, name: string): string | undefined {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 0; n < MAX_COPIES; n++) {
    const candidate = n === 0 ? name : `${stem} (${n})${ext}`;
    try {
      closeSync(openSync(path.join(folder, candidate), 'wx'));
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
  }
  return undefined;
}
