/** Cross-session memory: notes per scope, a full-text index over them, and frozen per-task snapshots. */
export const memory = `
CREATE TABLE memory_notes (
  rowid INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  scope TEXT NOT NULL,
  text TEXT NOT NULL,
  tags TEXT NOT NULL,
  task_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX memory_notes_by_scope ON memory_notes(scope, rowid);

CREATE VIRTUAL TABLE memory_fts USING fts5(text, tags, content='memory_notes', content_rowid='rowid', tokenize='unicode61');
CREATE TRIGGER memory_notes_ai AFTER INSERT ON memory_notes BEGIN
  INSERT INTO memory_fts(rowid, text, tags) VALUES (new.rowid, new.text, new.tags);
END;
CREATE TRIGGER memory_notes_ad AFTER DELETE ON memory_notes BEGIN
  INSERT INTO memory_fts(memory_fts, rowid, text, tags) VALUES ('delete', old.rowid, old.text, old.tags);
END;

CREATE TABLE memory_snapshots (
  task_id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

/**
 * The same tables on PostgreSQL: the full-text index is a generated tsvector (the 'simple'
 * configuration: no language's stemming, as SQLite's unicode61) with a GIN index, not FTS5.
 */
export const memoryPostgres = `
CREATE TABLE memory_notes (
  rowid BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  scope TEXT NOT NULL,
  text TEXT NOT NULL,
  tags TEXT NOT NULL,
  task_id TEXT,
  created_at TEXT NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('simple', text || ' ' || tags)) STORED
);
CREATE INDEX memory_notes_by_scope ON memory_notes(scope, rowid);
CREATE INDEX memory_notes_search ON memory_notes USING GIN (search);
CREATE TABLE memory_snapshots (
  task_id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;
