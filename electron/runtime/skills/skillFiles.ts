import fs from 'node:fs';
import path from 'node:path';

/** At most this many files are listed: enough to point at, not a directory dump. */
const MAX_LISTED = 100;
const MAX_DEPTH = 3;

/**
 * A skill's files besides SKILL.md (scripts/, references/, assets/, …), relative to its folder,
 * sorted. Symlinks and hidden entries are left out: they are not the skill's own files.
 */
export function skillFilesOf(dir: string): string[] {
  const out: string[] = [];
  walk(dir, '', 0, out);
  return out.sort();
}

function walk(dir: string, prefix: string, depth: number, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (out.length >= MAX_LISTED) return;
    if (entry.name.startsWith('.') || entry.isSymbolicLink()) continue;
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory() && depth < MAX_DEPTH) walk(dir, relative, depth + 1, out);
    else if (entry.isFile() && relative !== 'SKILL.md') out.push(relative);
  }
}
