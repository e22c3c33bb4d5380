import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';
import { SchemaRefSchema } from './config.js';
import { SecretNameSchema } from './settingsMethods.js';
import { RiskClassSchema } from './tool.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** An MCP server's local name; it becomes the middle of `mcp__<server>__<tool>`, so no `__`. */
export const McpServerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_)){0,39}$/, 'letters, digits, "-" or single "_", at most 40, starting with a letter or digit');

const ServerCommon = {
  timeoutMs: z
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(60_000)
    .describe('Per-call timeout (ms); a call that exceeds it marks the server unresponsive so the router falls back.'),
  capabilities: z
    .record(z.string(), z.array(z.string().min(1)))
    .default({})
    .describe('Tool name → capabilities it provides (e.g. `file.read`), so the router can fall back across tiers.'),
  enabled: z.boolean().default(true).describe('A disabled server is kept in the file but not connected.'),
};

/** A server started as a child process speaking MCP over stdio. */
export const McpStdioServerSchema = z
  .object({
    transport: z.literal('stdio').describe('Started as a child process speaking MCP over stdio.'),
    command: z.string().min(1).describe('The program to start, e.g. `npx`.'),
    args: z.array(z.string()).default([]).describe('Its arguments.'),
    env: z.record(z.string(), z.string()).default({}).describe('Extra environment variables for the child process.'),
    cwd: z.string().optional().describe('Its working folder.'),
    ...ServerCommon,
  })
  .strict();

/** An OAuth redirect URI of a native app (RFC 8252 §7.3): `http://127.0.0.1|localhost|[::1]:<port>/<path>`, where Agent Desk itself listens — never a remote page. */
export const McpOAuthRedirectUriSchema = z
  .url({ protocol: /^http$/ })
  .regex(
    /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d{1,5}(?:\/[^?#]*)?$/,
    'a redirect URI must be http://127.0.0.1, localhost or [::1] with a port (Agent Desk listens there), and no query',
  );

/**
 * The enterprise identity provider of cross-app access (SEP-990): the person's ID token is
 * exchanged there (RFC 8693) for an ID-JAG naming the MCP server's authorization server.
 */
export const McpIdentityProviderSchema = z
  .object({
    /** The IdP's issuer (the person signs in there); http only on a loopback address. */
    issuer: z
      .url({ protocol: /^https?$/ })
      .refine(
        (u) => u.startsWith('https:') || /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])[:/]/.test(u),
        'http only on a loopback address',
      )
      .describe('The identity provider’s issuer URL (https; http only on loopback).'),
    /** Its token endpoint; default: from the issuer's metadata. */
    tokenEndpoint: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('The IdP’s token endpoint (default: from its metadata).'),
    /** Agent Desk's client at the IdP: the one the person's ID token is issued to, which asks for ID-JAGs. */
    clientId: z.string().min(1).max(500).describe('Agent Desk’s client at the identity provider (the ID token’s audience).'),
    /** Name of the stored secret of that client, when it is confidential. */
    clientSecretSecret: SecretNameSchema.optional().describe('Name of the stored secret of that client, when it is confidential.'),
    /** Scopes asked for when `agent-desk mcp login` signs the person in at the IdP. */
    scopes: z.array(z.string().min(1)).default(['openid']).describe('Scopes of the person’s sign-in at the IdP (default openid).'),
  })
  .strict();
/** An identity provider of cross-app access. */
export type McpIdentityProvider = z.infer<typeof McpIdentityProviderSchema>;

/**
 * OAuth for one HTTP server (all optional: a server that answers 401 gets the SDK's discovery and
 * dynamic registration with nothing configured). Secrets are named, never written here.
 */
export const McpOAuthSchema = z
  .object({
    /**
     * `authorization_code` (default): a person consents in the browser (PKCE). `client_credentials`:
     * no person, the pre-registered client's own credentials buy the token (servers, CI).
     * `cross_app_access`: the signed-in person's ID token, exchanged at `identityProvider` for an
     * ID-JAG, buys a token for that person (jwt-bearer grant, RFC 7523) with no consent page.
     */
    grant: z
      .enum(['authorization_code', 'client_credentials', 'cross_app_access'])
      .default('authorization_code')
      .describe(
        'authorization_code: a person consents in the browser (PKCE); client_credentials: a confidential client with no person; cross_app_access: the signed-in person’s ID token, exchanged at identityProvider for an ID-JAG (enterprise-managed, no consent page).',
      ),
    /** Where the person's ID token is exchanged for an ID-JAG (grant `cross_app_access` only). */
    identityProvider: McpIdentityProviderSchema.optional().describe(
      'The enterprise identity provider of grant cross_app_access: the person signs in there and their ID token is exchanged for an ID-JAG.',
    ),
    /** A client registered beforehand with the authorization server (no dynamic registration then). */
    clientId: z.string().min(1).max(500).optional().describe('A client registered beforehand with the authorization server.'),
    /** Name of the stored secret holding that client's secret (`agent-desk secrets set <name>`); absent for a public client. */
    clientSecretSecret: SecretNameSchema.optional().describe(
      'Name of the stored secret holding that client’s secret (agent-desk secrets set <name>).',
    ),
    /** Scopes to ask for when neither the server's 401 nor its metadata name any. */
    clientKeySecret: SecretNameSchema.optional().describe(
      'Name of the stored secret holding that client’s private key (PEM): it authenticates with a signed assertion (private_key_jwt) instead of a secret.',
    ),
    clientKeyAlgorithm: z
      .enum(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'EdDSA'])
      .default('ES256')
      .describe('The signing algorithm of that key.'),
    scope: z.string().min(1).max(1000).optional().describe('Scopes to ask for when neither the server’s 401 nor its metadata name any.'),
    /** Fixed loopback redirect URI (a pre-registered client needs the one it was registered with); default an ephemeral port. */
    redirectUri: McpOAuthRedirectUriSchema.optional().describe(
      'Fixed loopback redirect URI, e.g. http://127.0.0.1:8765/callback (default: an ephemeral port).',
    ),
    /** An https URL of a client ID metadata document (SEP-991), used as client_id where the server supports it. */
    clientMetadataUrl: z
      .url({ protocol: /^https$/ })
      .optional()
      .describe('An https client ID metadata document (SEP-991), used as client_id where supported.'),
  })
  .strict()
  .refine((o) => o.clientSecretSecret === undefined || o.clientId !== undefined, {
    message: 'clientSecretSecret needs clientId (the pre-registered client it belongs to)',
    path: ['clientSecretSecret'],
  })
  .refine((o) => o.clientKeySecret === undefined || (o.clientId !== undefined && o.clientSecretSecret === undefined), {
    message: 'clientKeySecret needs clientId, and replaces clientSecretSecret (one way to authenticate the client)',
    path: ['clientKeySecret'],
  })
  .refine(
    (o) => o.grant !== 'client_credentials' || (o.clientId !== undefined && (o.clientSecretSecret ?? o.clientKeySecret) !== undefined),
    {
      message:
        'the client_credentials grant needs clientId and clientSecretSecret or clientKeySecret (a pre-registered confidential client)',
      path: ['grant'],
    },
  )
  .refine(
    (o) =>
      (o.grant === 'cross_app_access') === (o.identityProvider !== undefined) &&
      (o.grant !== 'cross_app_access' || o.clientId !== undefined),
    {
      message:
        'the cross_app_access grant needs identityProvider and clientId (the client pre-registered with the MCP server’s authorization server); identityProvider is for that grant only',
      path: ['identityProvider'],
    },
  );
/** OAuth settings of an HTTP server. */
export type McpOAuth = z.infer<typeof McpOAuthSchema>;

/** A server reached over MCP Streamable HTTP. */
export const McpHttpServerSchema = z
  .object({
    transport: z.literal('http').describe('Reached over MCP Streamable HTTP.'),
    url: z.url({ protocol: /^https?$/ }).describe('The server’s MCP endpoint (http or https).'),
    headers: z.record(z.string(), z.string()).default({}).describe('Extra request headers (the file is written 0600).'),
    oauth: McpOAuthSchema.optional().describe(
      'OAuth for a server that answers 401 (optional: discovery and dynamic registration need nothing here). Tokens go to the secret store, never this file.',
    ),
    ...ServerCommon,
  })
  .strict();

/** How to reach one MCP server (`$AGENT_DESK_HOME/mcp.json` → `servers.<name>`). */
export const McpServerConfigSchema = z.discriminatedUnion('transport', [McpStdioServerSchema, McpHttpServerSchema]);
/** An MCP server's configuration. */
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** The MCP config file (`$AGENT_DESK_HOME/mcp.json`): named servers, strict at every depth. */
export const McpConfigFileSchema = z
  .object({
    $schema: SchemaRefSchema.optional(),
    servers: z
      .record(McpServerNameSchema, McpServerConfigSchema)
      .default({})
      .describe('Servers by name; a server’s tools are offered as `mcp__<name>__<tool>`.'),
  })
  .strict();
/** The parsed MCP config file. */
export type McpConfigFile = z.infer<typeof McpConfigFileSchema>;

/** Connection state of one server. */
export const McpServerStateSchema = z.enum(['idle', 'connecting', 'connected', 'failed', 'closed']);
/** A connection state. */
export type McpServerState = z.infer<typeof McpServerStateSchema>;

/** One tool a server offers, as Agent Desk registered it. */
export const McpToolSummarySchema = z.object({
  name: z.string(),
  /** The name on the server. */
  remoteName: z.string(),
  description: z.string(),
  risk: RiskClassSchema,
});
/** A tool summary. */
export type McpToolSummary = z.infer<typeof McpToolSummarySchema>;

/** A server as `mcp.servers.list` shows it. */
export const McpServerStatusSchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  enabled: z.boolean(),
  state: McpServerStateSchema,
  /** Why the server is not usable (exited, timed out, refused…). */
  reason: z.string().optional(),
  tools: z.array(McpToolSummarySchema),
});
/** A server status. */
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>;

/** A resource a server lists (read it with `mcp__<server>__read_resource`). */
export const McpResourceSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
/** A listed resource. */
export type McpResource = z.infer<typeof McpResourceSchema>;

/** A parameterised resource (RFC 6570 URI template). */
export const McpResourceTemplateSchema = z.object({
  uriTemplate: z.string(),
  name: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

/** A prompt a server lists (render it with `mcp__<server>__get_prompt`). */
export const McpPromptSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })),
});
/** A listed prompt. */
export type McpPrompt = z.infer<typeof McpPromptSchema>;

/** What `mcp.servers.test` found on a live connection. */
export const McpServerProbeSchema = McpServerStatusSchema.extend({
  resources: z.array(McpResourceSchema),
  prompts: z.array(McpPromptSchema),
  serverVersion: z.object({ name: z.string(), version: z.string() }).optional(),
});
/** A probe result. */
export type McpServerProbe = z.infer<typeof McpServerProbeSchema>;

const ServerRef = z.object({ name: McpServerNameSchema }).strict();

/** MCP client methods: configured servers, their state and tools. Adding or testing one may start a process. */
export const McpMethods = {
  'mcp.servers.list': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ servers: z.array(McpServerStatusSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Configured MCP servers with their connection state and tools.',
  }),
  'mcp.servers.add': spec({
    params: z.object({ name: McpServerNameSchema, server: McpServerConfigSchema, replace: z.boolean().default(false) }).strict(),
    result: McpServerStatusSchema,
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Add (or with `replace`, change) an MCP server, save it and connect to discover its tools.',
  }),
  'mcp.servers.remove': spec({
    params: ServerRef,
    result: z.object({ removed: z.boolean() }),
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Disconnect an MCP server, unregister its tools and remove it from the config.',
  }),
  'mcp.servers.test': spec({
    params: ServerRef,
    result: McpServerProbeSchema,
    scope: 'operator.admin',
    sideEffect: false,
    description: 'Connect to a configured server and list its tools, resources and prompts.',
  }),
  'mcp.resources.list': spec({
    params: ServerRef,
    result: z.object({ server: z.string(), resources: z.array(McpResourceSchema), resourceTemplates: z.array(McpResourceTemplateSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Resources (and resource templates) one server lists; connects to it if needed.',
  }),
  'mcp.prompts.list': spec({
    params: ServerRef,
    result: z.object({ server: z.string(), prompts: z.array(McpPromptSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: 'Prompts one server lists, with their arguments; connects to it if needed.',
  }),
} as const;
