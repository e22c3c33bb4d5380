import { randomBytes } from 'node:crypto';
import {
  auth,
  type AddClientAuthentication,
  type AuthResult,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { McpOAuth } from '../../../contract/index.js';
import { AgentDeskError } from '../../../runtime/errors.js';
import type { SecretStore } from '../../../runtime/secrets/secretStore.js';
import { jwtBearerRequest, McpCrossAppAccessError, requestIdJag, type McpPersonIdentity } from './crossAppAccess.js';
import { LoopbackCallback, loopbackAddressOf } from './loopbackCallback.js';
import { McpAuthRequiredError, type McpConsent } from './mcpAuthRequired.js';
import { McpOAuthStore } from './mcpOAuthStore.js';

const DEFAULT_CONSENT_TIMEOUT_MS = 5 * 60_000;

/** What one server's OAuth client is made of. */
export interface McpOAuthProviderOptions {
  server: string;
  url: string;
  oauth: McpOAuth | undefined;
  secrets: SecretStore;
  /** Absent (headless): a needed consent is an McpAuthRequiredError instead of a page to open. */
  consent?: McpConsent;
  /** The person a cross-app access server is called for (grant `cross_app_access`); absent, such a server needs `mcp login`. */
  identity?: McpPersonIdentity;
  clientVersion: string;
}

/**
 * The SDK's OAuth client for one MCP server (authorization code with PKCE, dynamic or
 * pre-registered client, refresh), keeping what it learns in the secret store. Discovery,
 * resource indicators and token requests are the SDK's own `auth()`; this class decides
 * where things are kept, where the browser comes back to (a loopback listener, opened only
 * while a connection may need it) and whether a person can be asked at all.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private readonly store: McpOAuthStore;
  private listener: LoopbackCallback | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private consentShown = false;
  /** Set for a client that authenticates with a signed assertion (private_key_jwt); absent, the SDK picks basic/post/none. */
  readonly addClientAuthentication: AddClientAuthentication | undefined;

  constructor(private readonly opts: McpOAuthProviderOptions) {
    this.store = new McpOAuthStore(opts.secrets, opts.server, opts.url);
    this.addClientAuthentication = this.privateKeyJwt();
  }

  get redirectUrl(): string | undefined {
    if (this.machineToMachine) return undefined; // the SDK's sign for a non-interactive grant
    // Headless, nothing is listened on: the URL only has to name a loopback target (no consent is started).
    return (
      this.listener?.redirectUrl ??
      this.opts.oauth?.redirectUri ??
      registeredRedirect(this.store.dynamicClient()) ??
      'http://127.0.0.1/callback'
    );
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Agent Desk',
      redirect_uris: this.machineToMachine ? [] : [this.redirectUrl!],
      grant_types: this.machineToMachine ? [this.grantType] : ['authorization_code', 'refresh_token'],
      response_types: this.machineToMachine ? [] : ['code'],
      software_id: 'agent-desk',
      software_version: this.opts.clientVersion,
      ...(this.opts.oauth?.scope !== undefined && { scope: this.opts.oauth.scope }),
    };
  }

  get clientMetadataUrl(): string | undefined {
    return this.opts.oauth?.clientMetadataUrl;
  }

  /**
   * The token request of a grant with no browser: client_credentials, or cross-app access (the
   * person's ID-JAG from the IdP, presented with the jwt-bearer grant); the authorization code
   * grant keeps the SDK's default (undefined).
   */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (!this.machineToMachine) return undefined;
    if (this.opts.oauth?.grant === 'client_credentials')
      return new URLSearchParams({ grant_type: 'client_credentials', ...(scope !== undefined && { scope }) });
    return jwtBearerRequest(await this.idJag(scope), scope);
  }

  /** Grants that need no browser: the SDK runs them when `redirectUrl` is undefined. */
  private get machineToMachine(): boolean {
    return this.opts.oauth?.grant === 'client_credentials' || this.opts.oauth?.grant === 'cross_app_access';
  }

  private get grantType(): string {
    return this.opts.oauth?.grant === 'cross_app_access' ? 'urn:ietf:params:oauth:grant-type:jwt-bearer' : 'client_credentials';
  }

  /** The person's ID token exchanged at the IdP for an ID-JAG naming this server's authorization server and this server. */
  private async idJag(scope: string | undefined): Promise<string> {
    const { server } = this.opts;
    const idp = this.opts.oauth?.identityProvider;
    const discovery = this.discovery;
    if (!idp || !discovery)
      throw new AgentDeskError('bad_state', `MCP server ${server}: cross-app access without its identity provider or discovery`);
    const idToken = await this.opts.identity?.idToken(idp.issuer);
    if (idToken === undefined) throw new McpAuthRequiredError(server);
    const secretName = idp.clientSecretSecret;
    return requestIdJag({
      server,
      idp,
      idpClientSecret: secretName === undefined ? undefined : this.storedSecret('identityProvider.clientSecretSecret', secretName),
      idToken,
      audience: discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl,
      resource: discovery.resourceMetadata?.resource ?? this.opts.url,
      scope,
    });
  }

  /** An authorization server's refusal of a cross-app access grant, as the typed error saying so; other errors as they are. */
  explain(error: unknown): unknown {
    if (this.opts.oauth?.grant !== 'cross_app_access' || !(error instanceof OAuthError)) return error;
    return new McpCrossAppAccessError(
      this.opts.server,
      'jwt_bearer',
      `its authorization server refused the person's ID-JAG (${error.errorCode}: ${error.message})`,
      error.errorCode,
    );
  }

  state(): string {
    const state = randomBytes(16).toString('base64url');
    this.listener?.expect(state);
    return state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.opts.consent && !this.machineToMachine) await this.listen();
    const preRegistered = this.preRegisteredClient();
    if (preRegistered) return preRegistered;
    const dynamic = this.store.dynamicClient();
    // Registered for another loopback port (an earlier login): register again rather than send a redirect the server refuses.
    if (dynamic && this.listener && !redirectMatches(dynamic, this.listener.redirectUrl)) {
      this.store.forgetClient();
      return undefined;
    }
    if (!dynamic && !this.opts.consent) throw new McpAuthRequiredError(this.opts.server);
    return dynamic;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (this.opts.oauth?.clientId !== undefined) {
      if (info.issuer) this.store.savePreRegisteredIssuer(info.issuer);
      return;
    }
    // Headless, only the issuer stamp of the client already stored may be added: registering anew needs a login.
    if (!this.opts.consent && this.store.dynamicClient()?.client_id !== info.client_id) throw new McpAuthRequiredError(this.opts.server);
    this.store.saveDynamicClient(info);
  }

  tokens(): OAuthTokens | undefined {
    return this.store.tokens();
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.saveTokens(tokens);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.opts.consent || !this.listener) throw new McpAuthRequiredError(this.opts.server);
    this.consentShown = true;
    await this.opts.consent.openUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new AgentDeskError('bad_state', `no authorization of MCP server ${this.opts.server} is in progress`);
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.store.forgetTokens();
    if (scope === 'all' || scope === 'client') this.store.forgetClient();
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  /** A consent page was opened during the last `auth()`: the browser is expected back at the loopback listener. */
  get awaitingConsent(): boolean {
    return this.consentShown;
  }

  /** The authorization code the browser brought back (the person's consent), within the consent timeout. */
  async consentCode(): Promise<string> {
    if (!this.listener || !this.consentShown)
      throw new AgentDeskError('bad_state', `no consent page of MCP server ${this.opts.server} is open`);
    try {
      return await this.listener.waitForCode(this.opts.consent?.timeoutMs ?? DEFAULT_CONSENT_TIMEOUT_MS);
    } finally {
      this.consentShown = false;
    }
  }

  /** Renews an expired access token before it is sent (the SDK refreshes only after a 401); may need consent like a 401 does. */
  async refreshIfExpired(): Promise<AuthResult | undefined> {
    if (!this.store.accessTokenExpired()) return undefined;
    return auth(this, { serverUrl: this.opts.url });
  }

  /** Stops listening for the browser (a connection attempt is over). */
  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  private async listen(): Promise<void> {
    if (this.listener) return;
    const fixed = this.opts.oauth?.redirectUri;
    // Reuse the port of an earlier registration when free, so a dynamic client stays valid across logins.
    const earlier = fixed === undefined ? registeredRedirect(this.store.dynamicClient()) : undefined;
    const earlierPort = earlier ? Number(new URL(earlier).port) : 0;
    try {
      this.listener = await LoopbackCallback.listen(loopbackAddressOf(fixed, earlierPort));
    } catch (error) {
      if (fixed !== undefined || earlierPort === 0) throw error;
      this.listener = await LoopbackCallback.listen(loopbackAddressOf(undefined));
    }
  }

  private privateKeyJwt(): AddClientAuthentication | undefined {
    const oauth = this.opts.oauth;
    if (oauth?.clientKeySecret === undefined || oauth.clientId === undefined) return undefined;
    const sign = (): AddClientAuthentication =>
      createPrivateKeyJwtAuth({
        issuer: oauth.clientId!,
        subject: oauth.clientId!,
        privateKey: this.storedSecret('clientKeySecret', oauth.clientKeySecret!),
        alg: oauth.clientKeyAlgorithm,
      });
    // The key is read when a token is requested (it may be stored after the server was added).
    return (headers, params, url, metadata) => sign()(headers, params, url, metadata);
  }

  /** The value of a secret mcp.json names; a missing one is a clear error saying how to store it. */
  private storedSecret(field: 'clientSecretSecret' | 'clientKeySecret' | 'identityProvider.clientSecretSecret', name: string): string {
    const value = this.opts.secrets.get(name);
    if (value === undefined) {
      throw new AgentDeskError(
        'invalid_params',
        `mcp.json servers.${this.opts.server}.oauth.${field} names the secret "${name}", which is not stored; store it with: agent-desk secrets set ${name}`,
      );
    }
    return value;
  }

  private preRegisteredClient(): OAuthClientInformationMixed | undefined {
    const oauth = this.opts.oauth;
    if (oauth?.clientId === undefined) return undefined;
    const secretName = oauth.clientSecretSecret;
    const secret = secretName === undefined ? undefined : this.storedSecret('clientSecretSecret', secretName);
    const issuer = this.store.preRegisteredIssuer();
    return {
      client_id: oauth.clientId,
      ...(secret !== undefined && { client_secret: secret }),
      ...(issuer !== undefined && { issuer }),
    };
  }
}

function registeredRedirect(client: OAuthClientInformationMixed | undefined): string | undefined {
  const uris = client && 'redirect_uris' in client ? client.redirect_uris : undefined;
  return uris?.[0];
}

function redirectMatches(client: OAuthClientInformationMixed, redirectUrl: string): boolean {
  // A metadata-URL client (SEP-991) lists its redirect URIs in its own document, not here.
  return !('redirect_uris' in client) || client.redirect_uris.includes(redirectUrl);
}
