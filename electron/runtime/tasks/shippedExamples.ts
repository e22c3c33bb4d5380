import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The folder of the example playbooks that ship with the server (walks up from this module: works from src and dist). */
export function shippedExamplesDir(from: string = path.dirname(new URL(import.meta.url).pathname)): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'examples/playbooks');
    try {
      if (statSync(candidate).isDirectory()) return candidate;
    } catch {
      // keep walking up
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Names of the shipped example playbooks (their files' names without `.yaml`). */
export function shippedExampleNames(dir = shippedExamplesDir()): string[] {
  if (dir === undefined) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/**
 * Where a client's playbook sent without a folder resolves its relative files (service scripts):
 * beside the shipped example of the same name — the UI's picker sends an example's text, and
 * its `../services/…` live with the server, not in the data folder — else the data folder.
 */
export function defaultPlaybookBaseDir(source: string, home: string, dir = shippedExamplesDir()): string {
  const name = playbookName(source);
  if (dir !== undefined && name !== undefined && shippedExampleNames(dir).includes(name)) return dir;
  return home;
}

function playbookName(source: string): string | undefined {
  try {
    const doc = parse(source) as { name?: unknown } | null;
    return typeof doc?.name === 'string' ? doc.name : undefined;
  } catch {
    return undefined; // the playbook loader reports the syntax error with its location
  }
}
