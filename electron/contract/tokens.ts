import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';
import { ScopeSchema } from './scopes.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** A gateway token as listed: never its secret (only a hash of it is stored). */
export const GatewayTokenSchema = z.object({
  id: z.string(),
  /** Who or what holds it, e.g. `phone`. */
  name: z.string().optional(),
  scopes: z.array(ScopeSchema).min(1),
  createdAt: z.string(),
  lastUsedAt: z.string().optional(),
  /** Set once revoked: the token no longer opens a connection, and open ones stop answering. */
  revokedAt: z.string().optional(),
  /** The person it belongs to (a sign-in session, or a personal token): it acts as them, within their roles. */
  subject: z.string().optional(),
  /** When it stops working (sign-in sessions). */
  expiresAt: z.string().optional(),
});
/** A gateway token's record. */
export type GatewayToken = z.infer<typeof GatewayTokenSchema>;

/** The prefix of every issued token, so a leaked one is easy to recognise (and to scan for). */
export const GATEWAY_TOKEN_PREFIX = 'adt_';

/** `tokens.*`: revocable gateway tokens with chosen scopes (the default token keeps every scope). */
export const TokenMethods = {
  'tokens.create': spec({
    params: z
      .object({
        scopes: z.array(ScopeSchema).min(1).max(5),
        name: z.string().min(1).max(100).optional(),
      })
      .strict(),
    /** `secret` is shown this once; the runtime keeps only its SHA-256. */
    result: z.object({ token: GatewayTokenSchema, secret: z.string() }),
    scope: 'operator.admin',
    // Not replayed by idempotency key: the stored result would keep the secret in the database.
    sideEffect: false,
    description: 'Issue a gateway token with the given scopes; its secret is returned once and stored only as a hash.',
  }),
  'tokens.list': spec({
    params: z
      .object({ includeRevoked: z.boolean().default(false) })
      .strict()
      .default({ includeRevoked: false }),
    result: z.object({ tokens: z.array(GatewayTokenSchema) }),
    scope: 'operator.admin',
    sideEffect: false,
    description: 'Issued gateway tokens (never their secrets), newest first.',
  }),
  'tokens.revoke': spec({
    params: z.object({ id: z.string().min(1).max(100) }).strict(),
    result: GatewayTokenSchema,
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Revoke a gateway token: new connections with it are refused and open ones stop answering.',
  }),
} as const;
