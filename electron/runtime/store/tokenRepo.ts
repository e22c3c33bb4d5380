import { createHash, randomBytes } from 'node:crypto';
import { GATEWAY_TOKEN_PREFIX, type GatewayToken, type Scope } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
import type { SqlSession } from './sql/sqlPort.js';

interface TokenRow {
  id: string;
  name: string | null;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  subject: string | null;
  expires_at: string | null;
}

const toToken = (r: TokenRow): GatewayToken => ({
  id: r.id,
  ...(r.name !== null && { name: r.name }),
  scopes: JSON.parse(r.scopes) as Scope[],
  createdAt: r.created_at,
  ...(r.last_used_at !== null && { lastUsedAt: r.last_used_at }),
  ...(r.revoked_at !== null && { revokedAt: r.revoked_at }),
  ...(r.subject !== null && { subject: r.subject }),
  ...(r.expires_at !== null && { expiresAt: r.expires_at }),
});

/** Whose a token is and until when (a sign-in session is a person's token that expires). */
export interface TokenHolder {
  subject?: string;
  expiresAt?: string;
}

const expired = (row: TokenRow, now: number): boolean => row.expires_at !== null && Date.parse(row.expires_at) <= now;

/** The SHA-256 of a token secret, as stored and looked up. */
export const secretDigest = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

// A last-used time this fresh is not rewritten: a busy phone must not cost a write per call.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Issued gateway tokens. The secret leaves `issue` once and is kept only as its digest. */
export class TokenRepo {
  constructor(private readonly db: SqlSession) {}

  async issue(
    scopes: readonly Scope[],
    name: string | undefined,
    at: string,
    holder: TokenHolder = {},
  ): Promise<{ token: GatewayToken; secret: string }> {
    const id = `tok_${randomBytes(6).toString('hex')}`;
    const secret = `${GATEWAY_TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
    const unique = [...new Set(scopes)];
    await this.db.run(
      'INSERT INTO gateway_tokens (id, name, secret_sha256, scopes, created_at, subject, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, name ?? null, secretDigest(secret), toJson(unique), at, holder.subject ?? null, holder.expiresAt ?? null],
    );
    return { token: (await this.get(id))!, secret };
  }

  async get(id: string): Promise<GatewayToken | undefined> {
    const row = await this.db.get<TokenRow>('SELECT * FROM gateway_tokens WHERE id = ?', [id]);
    return row && toToken(row);
  }

  async list(includeRevoked: boolean): Promise<GatewayToken[]> {
    const where = includeRevoked ? '' : 'WHERE revoked_at IS NULL';
    return (await this.db.all<TokenRow>(`SELECT * FROM gateway_tokens ${where} ORDER BY created_at DESC, id DESC`)).map(toToken);
  }

  /** Marks a token revoked (once: a second revoke keeps the first time). */
  async revoke(id: string, at: string): Promise<GatewayToken | undefined> {
    await this.db.run('UPDATE gateway_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?', [at, id]);
    return this.get(id);
  }

  /** The live (unrevoked) token whose secret this is, noting its use; undefined otherwise. */
  async authenticate(secret: string, now: number): Promise<GatewayToken | undefined> {
    const row = await this.db.get<TokenRow>('SELECT * FROM gateway_tokens WHERE secret_sha256 = ? AND revoked_at IS NULL', [
      secretDigest(secret),
    ]);
    if (!row || expired(row, now)) return undefined;
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      const at = new Date(now).toISOString();
      await this.db.run('UPDATE gateway_tokens SET last_used_at = ? WHERE id = ?', [at, row.id]);
      row.last_used_at = at;
    }
    return toToken(row);
  }

  /** True while the token exists and is not revoked (asked before each call of an open connection). */
  async isLive(id: string, now = Date.now()): Promise<boolean> {
    const row = await this.db.get<TokenRow>('SELECT * FROM gateway_tokens WHERE id = ? AND revoked_at IS NULL', [id]);
    return row !== undefined && !expired(row, now);
  }

  /** Revokes every live token of a person (they were removed); returns how many. */
  async revokeAllOf(subject: string, at: string): Promise<number> {
    const info = await this.db.run('UPDATE gateway_tokens SET revoked_at = ? WHERE subject = ? AND revoked_at IS NULL', [at, subject]);
    return info.changes;
  }
}
