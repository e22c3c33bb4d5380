import { z } from 'zod';
import { RoleSchema } from './people.js';

/**
 * Sign-in through an OpenID provider. Absent: the gateway's own token is the one person
 * (every role), as before. Present: people sign in to the web UI (authorization code + PKCE)
 * and the CLI (device flow), and get roles from the provider's group claim.
 */
export const OidcConfigSchema = z
  .object({
    issuer: z.string().url().describe('The provider’s issuer URL (its `/.well-known/openid-configuration` is read).'),
    clientId: z.string().min(1).max(500).describe('This gateway’s client id at the provider (the ID token’s audience).'),
    cliClientId: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('A public (native) client for `agent-desk login` (loopback redirect); absent: `clientId`.'),
    clientSecretName: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('The name of a stored secret holding the client secret (absent: a public client with PKCE only).'),
    redirectUri: z
      .string()
      .url()
      .optional()
      .describe('Where the provider sends the browser back (`…/auth/callback`); absent: the gateway’s own address.'),
    scopes: z.array(z.string().min(1)).default(['openid', 'profile', 'email']).describe('Scopes asked for at sign-in.'),
    groupsClaim: z.string().min(1).default('groups').describe('The ID token claim listing the person’s groups.'),
    roles: z
      .partialRecord(RoleSchema, z.array(z.string().min(1)))
      .default({})
      .describe('Groups whose members get each role, e.g. `{"approver": ["finance"], "admin": ["it"]}`.'),
    defaultRoles: z.array(RoleSchema).default(['viewer']).describe('Roles of a person in none of the groups above.'),
    allowInsecureIssuer: z
      .boolean()
      .default(false)
      .describe('Accept an `http://` issuer (a provider on loopback in tests); never for a real provider.'),
    sessionHours: z.number().min(0.1).max(720).default(12).describe('How long a sign-in lasts before signing in again.'),
  })
  .strict();
/** OIDC sign-in settings. */
export type OidcConfig = z.infer<typeof OidcConfigSchema>;

/** `auth` in the config file. */
export const AuthConfigSchema = z
  .object({ oidc: OidcConfigSchema.optional().describe('Sign-in with an OpenID provider.') })
  .strict()
  .describe('Who may use the gateway: the gateway token (default) and people signed in with OpenID Connect.');
/** Auth settings. */
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
