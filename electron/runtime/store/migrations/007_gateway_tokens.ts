/** Revocable gateway tokens: only the SHA-256 of each secret is kept, never the secret. */
export const gatewayTokens = `
CREATE TABLE gateway_tokens (
  id TEXT PRIMARY KEY,
  name TEXT,
  secret_sha256 TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
`;
