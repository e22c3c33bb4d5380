import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The SQLite files under `home` (the database, its `-wal` and `-shm`) whose raw bytes hold
 * `secret`. Read while the runtime is open: closing checkpoints and removes the WAL.
 */
export function databaseFilesHolding(home: string, secret: string): string[] {
  const files = readdirSync(home).filter((f) => f.startsWith('agent-desk.db'));
  if (!files.includes('agent-desk.db-wal')) throw new Error(`no WAL under ${home}: read the files while the runtime is open`);
  return files.filter((f) => readFileSync(path.join(home, f)).includes(secret));
}

/** Files anywhere under `dir` (recursively) whose bytes hold `secret`. */
export function filesHolding(dir: string, secret: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => readFileSync(file).includes(secret));
}
