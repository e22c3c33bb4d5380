import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where a secret was found, e.g. `agent-desk.db-wal` or `model request #3`. */
export type LeakSource = string;

/** A named text to search. */
export interface ScanTarget {
  source: LeakSource;
  text: string | Buffer;
}

/** The forms of the value that count: as is, URL-encoded, base64 (a tool may encode what it sends). */
export function secretForms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])];
}

/** Sources that hold any form of the secret. */
export function findLeaks(targets: readonly ScanTarget[], secret: string): LeakSource[] {
  const forms = secretForms(secret).map((f) => Buffer.from(f));
  return targets
    .filter((t) => {
      const bytes = typeof t.text === 'string' ? Buffer.from(t.text) : t.text;
      return forms.some((f) => bytes.includes(f));
    })
    .map((t) => t.source);
}

/**
 * What the runtime wrote under its data folder: the database and its WAL and any log file.
 * Workspaces are left out (the user's files hold the secret on purpose), and so is the secret
 * store itself (encrypted; its key beside it).
 */
export function dataFolderTargets(home: string): ScanTarget[] {
  const out: ScanTarget[] = [];
  for (const name of ['agent-desk.db', 'agent-desk.db-wal', 'agent-desk.db-shm']) {
    const file = path.join(home, name);
    if (existsSync(file)) out.push({ source: name, text: readFileSync(file) });
  }
  for (const file of logFiles(home)) out.push({ source: path.relative(home, file), text: readFileSync(file) });
  return out;
}

function logFiles(dir: string, depth = 0): string[] {
  if (depth > 3 || !existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (entry === 'workspaces' || entry.startsWith('ws-')) continue;
    const stat = statSync(full);
    if (stat.isDirectory()) out.push(...logFiles(full, depth + 1));
    else if (/\.(log|jsonl)$/.test(entry) && entry !== 'mcp-effects.jsonl') out.push(full);
  }
  return out;
}
