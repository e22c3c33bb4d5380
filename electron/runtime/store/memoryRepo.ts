import type Database from 'better-sqlite3';
import type { MemoryNote, MemoryScope } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';

interface NoteRow {
  id: string;
  scope: string;
  text: string;
  tags: string;
  task_id: string | null;
  created_at: string;
}

/** The stored key of a scope: `agent:<name>` or `workspace:<absolute path>`. */
export const scopeKey = (scope: MemoryScope): string => `${scope.kind}:${scope.id}`;

const toNote = (r: NoteRow): MemoryNote => {
  const colon = r.scope.indexOf(':');
  return {
    id: r.id,
    scope: { kind: r.scope.slice(0, colon) as MemoryScope['kind'], id: r.scope.slice(colon + 1) },
    text: r.text,
    tags: JSON.parse(r.tags),
    ...(r.task_id !== null && { taskId: r.task_id }),
    createdAt: r.created_at,
  };
};

/** Words of a free-text query as an FTS5 expression: each quoted (no operator injection), prefix-matched, any may match. */
function ftsQuery(query: string): string | undefined {
  const words = query.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words.length === 0 ? undefined : words.map((w) => `"${w}"*`).join(' OR ');
}

/** Memory notes with a full-text index; every read and write names its scope. */
export class MemoryRepo {
  constructor(private readonly db: Database.Database) {}

  /** Adds a note; false when a note with this id exists (a re-run of the same save). */
  add(note: MemoryNote): boolean {
    return (
      this.db
        .prepare('INSERT OR IGNORE INTO memory_notes (id, scope, text, tags, task_id, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(note.id, scopeKey(note.scope), note.text, toJson(note.tags), note.taskId ?? null, note.createdAt).changes > 0
    );
  }

  get(scope: MemoryScope, id: string): MemoryNote | undefined {
    const row = this.db.prepare('SELECT * FROM memory_notes WHERE scope = ? AND id = ?').get(scopeKey(scope), id) as NoteRow | undefined;
    return row && toNote(row);
  }

  /** Best matches first; an empty query lists the newest notes. */
  search(scope: MemoryScope, query: string, limit: number): MemoryNote[] {
    const match = ftsQuery(query);
    if (match === undefined) return this.recent(scope, limit);
    const sql = `SELECT n.* FROM memory_fts f JOIN memory_notes n ON n.rowid = f.rowid
                 WHERE memory_fts MATCH ? AND n.scope = ? ORDER BY bm25(memory_fts), n.rowid DESC LIMIT ?`;
    return (this.db.prepare(sql).all(match, scopeKey(scope), limit) as NoteRow[]).map(toNote);
  }

  /** Newest notes of a scope. */
  recent(scope: MemoryScope, limit: number): MemoryNote[] {
    const sql = 'SELECT * FROM memory_notes WHERE scope = ? ORDER BY rowid DESC LIMIT ?';
    return (this.db.prepare(sql).all(scopeKey(scope), limit) as NoteRow[]).map(toNote);
  }

  /** Removes a note of this scope (a note of another scope is not touched). */
  forget(scope: MemoryScope, id: string): boolean {
    return this.db.prepare('DELETE FROM memory_notes WHERE scope = ? AND id = ?').run(scopeKey(scope), id).changes > 0;
  }

  /** The snapshot frozen for a task, if one was taken. */
  snapshot(taskId: string): string | undefined {
    const row = this.db.prepare('SELECT text FROM memory_snapshots WHERE task_id = ?').get(taskId) as { text: string } | undefined;
    return row?.text;
  }

  /** Freezes a task's snapshot; the first one taken wins. */
  freezeSnapshot(taskId: string, text: string, atIso: string): string {
    this.db.prepare('INSERT OR IGNORE INTO memory_snapshots (task_id, text, created_at) VALUES (?, ?, ?)').run(taskId, text, atIso);
    return this.snapshot(taskId) ?? text;
  }
}
