/**
 * People and four-eyes approvals. A person is first written at sign-in (OIDC) and keyed by the
 * provider's subject; a task records who started it; an issued token may belong to a person and
 * expire (a sign-in session is one); each approver's decision is a row of its own, so two
 * approvers agreeing at once both count and nobody can agree twice (the key).
 */
export const people = `
CREATE TABLE people (
  subject TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT,
  roles TEXT NOT NULL,
  groups TEXT NOT NULL,
  disabled_at TEXT,
  created_at TEXT NOT NULL,
  last_sign_in_at TEXT
);
ALTER TABLE tasks ADD COLUMN owner_subject TEXT;
ALTER TABLE tasks ADD COLUMN owner_name TEXT;
ALTER TABLE gateway_tokens ADD COLUMN subject TEXT;
ALTER TABLE gateway_tokens ADD COLUMN expires_at TEXT;
ALTER TABLE approvals ADD COLUMN rule TEXT;
ALTER TABLE approvals ADD COLUMN owner_subject TEXT;
ALTER TABLE approvals ADD COLUMN owner_name TEXT;
CREATE TABLE approval_votes (
  approval_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  name TEXT NOT NULL,
  decision TEXT NOT NULL,
  reason TEXT,
  at TEXT NOT NULL,
  voided_at TEXT,
  PRIMARY KEY (approval_id, subject)
);
CREATE TABLE sign_in_replays (
  digest TEXT PRIMARY KEY,
  expires_at TEXT NOT NULL
);
`;
