import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { GATEWAY_TOKEN_PREFIX, type GatewayToken, type Scope } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';

interface TokenRow {
  id: string;
  name: string | null;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const toToken = (r: TokenRow): GatewayToken => ({
  id: r.id,
  ...(r.name !== null && { name: r.name }),
  scopes: JSON.parse(r.scopes) as Scope[],
  createdAt: r.created_at,
  ...(r.last_used_at !== null && { lastUsedAt: r.last_used_at }),
  ...(r.revoked_at !== null && { revokedAt: r.revoked_at }),
});

/** The SHA-256 of a token secret, as stored and looked up. */
export const secretDigest = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

// A last-used time this fresh is not rewritten: a busy phone must not cost a write per call.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Issued gateway tokens. The secret leaves `issue` once and is kept only as its digest. */
export class TokenRepo {
  constructor(private readonly db: Database.Database) {}

  issue(scopes: readonly Scope[], name: string | undefined, at: string): { token: GatewayToken; secret: string } {
    const id = `tok_${randomBytes(6).toString('hex')}`;
    const secret = `${GATEWAY_TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
    const unique = [...new Set(scopes)];
    this.db
      .prepare('INSERT INTO gateway_tokens (id, name, secret_sha256, scopes, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, name ?? null, secretDigest(secret), toJson(unique), at);
    return { token: this.get(id)!, secret };
  }

  get(id: string): GatewayToken | undefined {
    const row = this.db.prepare('SELECT * FROM gateway_tokens WHERE id = ?').get(id) as TokenRow | undefined;
    return row && toToken(row);
  }

  list(includeRevoked: boolean): GatewayToken[] {
    const where = includeRevoked ? '' : 'WHERE revoked_at IS NULL';
    const rows = this.db.prepare(`SELECT * FROM gateway_tokens ${where} ORDER BY created_at DESC, rowid DESC`).all() as TokenRow[];
    return rows.map(toToken);
  }

  /** Marks a token revoked (once: a second revoke keeps the first time). */
  revoke(id: string, at: string): GatewayToken | undefined {
    this.db.prepare('UPDATE gateway_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(at, id);
    return this.get(id);
  }

  /** The live (unrevoked) token whose secret this is, noting its use; undefined otherwise. */
  authenticate(secret: string, now: number): GatewayToken | undefined {
    const row = this.db.prepare('SELECT * FROM gateway_tokens WHERE secret_sha256 = ? AND revoked_at IS NULL').get(secretDigest(secret)) as
      TokenRow | undefined;
    if (!row) return undefined;
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      const at = new Date(now).toISOString();
      this.db.prepare('UPDATE gateway_tokens SET last_used_at = ? WHERE id = ?').run(at, row.id);
      row.last_used_at = at;
    }
    return toToken(row);
  }

  /** True while the token exists and is not revoked (asked before each call of an open connection). */
  isLive(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM gateway_tokens WHERE id = ? AND revoked_at IS NULL').get(id) !== undefined;
  }
}
