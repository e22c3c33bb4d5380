import type { MemoryNote, MemoryScope } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
import type { SqlSession } from './sql/sqlPort.js';

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

/** The words of a free-text query (letters, digits, underscores): nothing else reaches the search syntax. */
const queryWords = (query: string): string[] => query.match(/[\p{L}\p{N}_]+/gu) ?? [];

/** Words as an FTS5 expression: each quoted (no operator injection), prefix-matched, any may match. */
const ftsQuery = (words: string[]): string => words.map((w) => `"${w}"*`).join(' OR ');

/** Words as a PostgreSQL tsquery: each a prefix match (`:*`), any may match; the words hold no operator. */
const tsQuery = (words: string[]): string => words.map((w) => `${w.toLowerCase()}:*`).join(' | ');

const SEARCH_SQLITE = `SELECT n.* FROM memory_fts f JOIN memory_notes n ON n.rowid = f.rowid
  WHERE memory_fts MATCH ? AND n.scope = ? ORDER BY bm25(memory_fts), n.rowid DESC LIMIT ?`;
const SEARCH_POSTGRES = `SELECT n.* FROM memory_notes n, to_tsquery('simple', ?) q
  WHERE n.search @@ q AND n.scope = ? ORDER BY ts_rank(n.search, q) DESC, n.rowid DESC LIMIT ?`;

/** Memory notes with a full-text index; every read and write names its scope. */
export class MemoryRepo {
  constructor(private readonly db: SqlSession) {}

  /** Adds a note; false when a note with this id exists (a re-run of the same save). */
  async add(note: MemoryNote): Promise<boolean> {
    const sql = 'INSERT INTO memory_notes (id, scope, text, tags, task_id, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING';
    const result = await this.db.run(sql, [
      note.id,
      scopeKey(note.scope),
      note.text,
      toJson(note.tags),
      note.taskId ?? null,
      note.createdAt,
    ]);
    return result.changes > 0;
  }

  async get(scope: MemoryScope, id: string): Promise<MemoryNote | undefined> {
    const row = await this.db.get<NoteRow>('SELECT * FROM memory_notes WHERE scope = ? AND id = ?', [scopeKey(scope), id]);
    return row && toNote(row);
  }

  /** Best matches first; an empty query lists the newest notes. */
  async search(scope: MemoryScope, query: string, limit: number): Promise<MemoryNote[]> {
    const words = queryWords(query);
    if (words.length === 0) return this.recent(scope, limit);
    const [sql, match] = this.db.dialect === 'postgres' ? [SEARCH_POSTGRES, tsQuery(words)] : [SEARCH_SQLITE, ftsQuery(words)];
    return (await this.db.all<NoteRow>(sql, [match, scopeKey(scope), limit])).map(toNote);
  }

  /** Newest notes of a scope. */
  async recent(scope: MemoryScope, limit: number): Promise<MemoryNote[]> {
    const sql = 'SELECT * FROM memory_notes WHERE scope = ? ORDER BY rowid DESC LIMIT ?';
    return (await this.db.all<NoteRow>(sql, [scopeKey(scope), limit])).map(toNote);
  }

  /** Removes a note of this scope (a note of another scope is not touched). */
  async forget(scope: MemoryScope, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM memory_notes WHERE scope = ? AND id = ?', [scopeKey(scope), id])).changes > 0;
  }

  /** The snapshot frozen for a task, if one was taken. */
  async snapshot(taskId: string): Promise<string | undefined> {
    const row = await this.db.get<{ text: string }>('SELECT text FROM memory_snapshots WHERE task_id = ?', [taskId]);
    return row?.text;
  }

  /** Freezes a task's snapshot; the first one taken wins. */
  async freezeSnapshot(taskId: string, text: string, atIso: string): Promise<string> {
    await this.db.run('INSERT INTO memory_snapshots (task_id, text, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
      taskId,
      text,
      atIso,
    ]);
    return (await this.snapshot(taskId)) ?? text;
  }
}
