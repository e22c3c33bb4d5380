import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import type { SecretStore } from '../../../runtime/secrets/secretStore.js';

/** Token fields other than the two secrets, and when the access token stops being valid. */
const StoredTokensSchema = z
  .object({
    token_type: z.string(),
    scope: z.string().optional(),
    issuer: z.string().optional(),
    id_token: z.string().optional(),
    /** Epoch ms; absent when the server gave no `expires_in`. */
    expiresAt: z.number().optional(),
  })
  .strict();

/** What is kept about one server's OAuth besides its secret values (themselves stored one per secret, so each is redacted alone). */
const StoredOAuthSchema = z
  .object({
    version: z.literal(1),
    /** The URL the tokens were obtained for: they are never sent to any other (a changed `url` in mcp.json drops them). */
    serverUrl: z.string(),
    tokens: StoredTokensSchema.optional(),
    /** A dynamically registered (or metadata-URL) client, without its secret. */
    client: z.record(z.string(), z.unknown()).optional(),
    /** The authorization server a pre-registered client was first accepted by. */
    preRegisteredIssuer: z.string().optional(),
  })
  .strict();
type StoredOAuth = z.infer<typeof StoredOAuthSchema>;

/** Secret names of one server's OAuth state: `mcp.<server>.oauth` and `mcp.<server>.oauth.<part>`. */
export function mcpOAuthSecretNames(server: string): { meta: string; accessToken: string; refreshToken: string; clientSecret: string } {
  const meta = `mcp.${server}.oauth`;
  return { meta, accessToken: `${meta}.access_token`, refreshToken: `${meta}.refresh_token`, clientSecret: `${meta}.client_secret` };
}

/** Seconds of validity left below which a stored access token counts as expired (refreshed before use). */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * One server's OAuth tokens and client registration in the runtime's secret store. Access and
 * refresh tokens and a client secret are separate secrets (the redactor masks each value); the
 * rest is one JSON secret. Everything is bound to the server URL it was obtained for.
 */
export class McpOAuthStore {
  private readonly names: ReturnType<typeof mcpOAuthSecretNames>;

  constructor(
    private readonly secrets: SecretStore,
    server: string,
    private readonly serverUrl: string,
    private readonly now: () => number = Date.now,
  ) {
    this.names = mcpOAuthSecretNames(server);
  }

  /** The stored tokens for this server URL (undefined when none, or when they were obtained for another URL). */
  tokens(): OAuthTokens | undefined {
    const stored = this.meta()?.tokens;
    const accessToken = this.secrets.get(this.names.accessToken);
    if (!stored || accessToken === undefined) return undefined;
    const refreshToken = this.secrets.get(this.names.refreshToken);
    const { expiresAt, ...rest } = stored;
    return {
      ...rest,
      access_token: accessToken,
      ...(refreshToken !== undefined && { refresh_token: refreshToken }),
      ...(expiresAt !== undefined && { expires_in: Math.max(0, Math.floor((expiresAt - this.now()) / 1000)) }),
    };
  }

  /** Whether the access token has expired (or is about to) while a refresh token could renew it. */
  accessTokenExpired(): boolean {
    const expiresAt = this.meta()?.tokens?.expiresAt;
    return expiresAt !== undefined && expiresAt - EXPIRY_MARGIN_MS <= this.now() && this.secrets.get(this.names.refreshToken) !== undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.meta(); // state of another server URL goes first, so it cannot outlive these tokens
    const { access_token, refresh_token, expires_in, ...rest } = tokens;
    this.secrets.set(this.names.accessToken, access_token);
    if (refresh_token !== undefined) this.secrets.set(this.names.refreshToken, refresh_token);
    else this.secrets.delete(this.names.refreshToken);
    const expiresAt = expires_in === undefined ? undefined : this.now() + expires_in * 1000;
    this.update((m) => ({
      ...m,
      tokens: StoredTokensSchema.parse({ ...definedOnly(rest), ...(expiresAt !== undefined && { expiresAt }) }),
    }));
  }

  /** The dynamically registered client, its secret put back. */
  dynamicClient(): OAuthClientInformationMixed | undefined {
    const client = this.meta()?.client;
    if (!client) return undefined;
    const secret = this.secrets.get(this.names.clientSecret);
    return { ...(client as OAuthClientInformationMixed), ...(secret !== undefined && { client_secret: secret }) };
  }

  saveDynamicClient(info: OAuthClientInformationMixed): void {
    this.meta();
    const { client_secret, ...rest } = info;
    if (client_secret !== undefined) this.secrets.set(this.names.clientSecret, client_secret);
    else this.secrets.delete(this.names.clientSecret);
    this.update((m) => ({ ...m, client: definedOnly(rest) }));
  }

  preRegisteredIssuer(): string | undefined {
    return this.meta()?.preRegisteredIssuer;
  }

  savePreRegisteredIssuer(issuer: string): void {
    this.update((m) => ({ ...m, preRegisteredIssuer: issuer }));
  }

  forgetTokens(): void {
    this.secrets.delete(this.names.accessToken);
    this.secrets.delete(this.names.refreshToken);
    this.update(({ tokens: _gone, ...m }) => m);
  }

  forgetClient(): void {
    this.secrets.delete(this.names.clientSecret);
    this.update(({ client: _gone, preRegisteredIssuer: _issuer, ...m }) => m);
  }

  /** Removes every secret of this server's OAuth state; true when something was stored. */
  forgetAll(): boolean {
    return Object.values(this.names)
      .map((name) => this.secrets.delete(name))
      .some(Boolean);
  }

  /** The stored state when it belongs to this server URL; state of another URL is dropped (with its secrets). */
  private meta(): StoredOAuth | undefined {
    const raw = this.secrets.get(this.names.meta);
    if (raw === undefined) return undefined;
    const parsed = StoredOAuthSchema.safeParse(safeJson(raw));
    if (parsed.success && parsed.data.serverUrl === this.serverUrl) return parsed.data;
    this.forgetAll();
    return undefined;
  }

  private update(change: (meta: StoredOAuth) => StoredOAuth): void {
    const next = change(this.meta() ?? { version: 1, serverUrl: this.serverUrl });
    this.secrets.set(this.names.meta, JSON.stringify(next));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function definedOnly<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
