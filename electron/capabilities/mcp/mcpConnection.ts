import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { traceMeta, tracedFetch, untraced } from '../../runtime/trace/telemetry/propagation.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Availability, McpServerConfig, McpServerState } from '../../contract/index.js';
import type { SecretStore } from '../../runtime/secrets/secretStore.js';
import { ToolError } from '../../runtime/tools/types.js';
import { McpCallTimer } from './mcpCallTimer.js';
import { catalogEntries, listCatalog, type McpCatalog } from './mcpCatalogTools.js';
import { answerElicitation, type AskingCall } from './mcpElicitation.js';
import type { CachedMcpTool } from './mcpConfigFile.js';
import { McpCrossAppAccessError, type McpPersonIdentity } from './oauth/crossAppAccess.js';
import { McpAuthRequiredError, type McpConsent } from './oauth/mcpAuthRequired.js';
import { McpOAuthProvider } from './oauth/mcpOAuthProvider.js';

/** Progress reported by a server during one call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options shared by every connection of a manager. */
export interface McpConnectionOptions {
  clientVersion: string;
  /** Delays between reconnect attempts after a server died (the last one repeats); [] turns reconnecting off. */
  reconnectDelaysMs: readonly number[];
  /** Told whenever the tool list was (re)discovered. */
  onTools(server: string, tools: CachedMcpTool[]): void;
  /** Told on every state change (for logs and events). */
  onState?(server: string, state: McpServerState, reason: string | undefined): void;
  /**
   * OAuth for HTTP servers: tokens kept in `secrets`; `consent` shows the page (absent: headless,
   * login by CLI); `identity` is the person a cross-app access server is called for.
   */
  auth?: { secrets: SecretStore; consent?: McpConsent; identity?: McpPersonIdentity };
}

/** How a handshake ended: connected, or a consent page was opened and the browser is awaited. */
type Handshake = { client: Client } | { awaitingConsent: StreamableHTTPClientTransport };

const STDERR_TAIL = 2000;
const PROBE_TIMEOUT_MS = 5000;
/** The SDK's own request timeout is switched off (setTimeout's maximum): McpCallTimer keeps time. */
const NO_SDK_TIMEOUT_MS = 2_147_483_647;

/**
 * One MCP server: connects on demand, lists and calls tools, notices when the server dies or
 * stops answering (its tools then report unavailable), and reconnects with backoff.
 */
export class McpConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<Client> | undefined;
  private stateValue: McpServerState = 'idle';
  private reasonValue: string | undefined;
  private stderrTail = '';
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectAttempt = 0;
  private closedByUs = false;
  private calls = 0;
  private probing = false;
  private readonly asking: AskingCall[] = [];
  /** The OAuth client of the current link (its transport asks it for tokens on every request). */
  private oauth: McpOAuthProvider | undefined;
  /** The last attempt failed for want of a login (not a broken link). */
  private needsLogin = false;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: McpConnectionOptions,
  ) {}

  /** Current state. */
  get state(): McpServerState {
    return this.stateValue;
  }

  /** Why the server is failed or closed. */
  get reason(): string | undefined {
    return this.reasonValue;
  }

  /** The child process id of a stdio server while it runs. */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** Reconnects scheduled since the link was lost (0 while connected); each waits longer than the last. */
  get reconnectAttempts(): number {
    return this.reconnectAttempt;
  }

  /** Tool calls waiting for an answer right now. */
  get inFlight(): number {
    return this.calls;
  }

  /** The server's name and version once connected. */
  get serverVersion(): { name: string; version: string } | undefined {
    return this.client?.getServerVersion();
  }

  /** Tools of an idle server are offered (it connects on first use); a failed or closed one's are not. */
  availability(): Availability {
    if (!this.config.enabled) return { available: false, reason: `MCP server "${this.name}" is disabled` };
    // Waiting for a login where a consent page can be shown (the desktop): a task's call is what opens it.
    if (this.stateValue === 'failed' && this.needsLogin && this.options.auth?.consent) return { available: true };
    if (this.stateValue === 'failed' || this.stateValue === 'closed') {
      return { available: false, reason: `MCP server "${this.name}" is ${this.stateValue}: ${this.reasonValue ?? 'unknown reason'}` };
    }
    return { available: true };
  }

  /**
   * Connects (once; concurrent callers share the attempt) and returns the live client. Only a
   * foreground attempt (a call, a person's add/test/login) may open a consent page; background
   * ones (start-up, reconnects) never pop a browser up unasked.
   */
  async connect(foreground = true): Promise<Client> {
    if (this.client && this.stateValue === 'connected') return this.client;
    // Opened outside the calling step's trace: the connection (and its event stream) serves every task.
    this.connecting ??= untraced(() => this.open(foreground)).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Calls one tool; server-side tool errors and protocol errors are ToolErrors, a dead link is a retryable one. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; onProgress?: (p: McpProgress) => void; asker?: Omit<AskingCall, 'timer'> },
  ): Promise<CallToolResult> {
    const result = await this.request(tool, opts.signal, async (client, options, timer) => {
      const asking = opts.asker && { ...opts.asker, timer };
      if (asking) this.asking.push(asking);
      try {
        // The step's trace context rides in `_meta` on every transport (and as a header over HTTP).
        const meta = traceMeta();
        const params = Object.keys(meta).length > 0 ? { name: tool, arguments: args, _meta: meta } : { name: tool, arguments: args };
        return await client.callTool(params, undefined, {
          ...options,
          onprogress: (p) => {
            timer.touch();
            opts.onProgress?.(p);
          },
        });
      } finally {
        if (asking) this.asking.splice(this.asking.indexOf(asking), 1);
      }
    });
    return result as CallToolResult;
  }

  /** Reads one resource (`resources/read`). */
  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    return this.request(`resources/read ${uri}`, signal, (client, options) => client.readResource({ uri }, options));
  }

  /** Renders one prompt (`prompts/get`) with its arguments. */
  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult> {
    return this.request(`prompts/get ${name}`, signal, (client, options) => client.getPrompt({ name, arguments: args }, options));
  }

  /** One request on the live client, with the call's timeout and abort signal, and failures made ToolErrors. */
  private async request<T>(
    what: string,
    signal: AbortSignal,
    send: (client: Client, options: RequestOptions, timer: McpCallTimer) => Promise<T>,
  ): Promise<T> {
    const client = await this.connect().catch((error: unknown) => {
      if (error instanceof McpAuthRequiredError) throw new ToolError(error.message, true, 'mcp_auth_required');
      throw new ToolError(`MCP server "${this.name}" cannot be reached: ${messageOf(error)}`, true, 'mcp_unavailable');
    });
    // Our timer, not the SDK's: it also stands still while the user answers the server's question.
    const timer = new McpCallTimer(this.config.timeoutMs, signal);
    this.calls++;
    const options = { signal: timer.signal, timeout: NO_SDK_TIMEOUT_MS };
    try {
      try {
        return await send(client, options, timer);
      } catch (error) {
        // A 403 insufficient_scope mid-session (step-up) opened a consent page: the refused request ran nowhere, so it is sent again once.
        if (!(await this.finishStepUp(error, timer))) throw error;
        return await send(client, options, timer);
      }
    } catch (error) {
      throw this.callFailure(what, error, signal, timer.timedOut);
    } finally {
      timer.dispose();
      this.calls--;
    }
  }

  /** After a request refused for want of authorization: waits for the consent it opened and buys the new token (true), or says none is open. */
  private async finishStepUp(error: unknown, timer: McpCallTimer): Promise<boolean> {
    const oauth = this.oauth;
    const transport = this.transport;
    if (!(error instanceof UnauthorizedError) || !oauth?.awaitingConsent || !(transport instanceof StreamableHTTPClientTransport))
      return false;
    timer.pause(); // the person's time in the browser is not the server's
    try {
      await transport.finishAuth(await oauth.consentCode());
      return true;
    } finally {
      timer.resume();
      await oauth.close();
    }
  }

  /** Resources, resource templates and prompts the server lists (empty when it does not support them). */
  async catalog(): Promise<McpCatalog> {
    return listCatalog(await this.connect(), this.config.timeoutMs);
  }

  /** Disconnects for good (stops a stdio server); no reconnect follows. */
  async close(): Promise<void> {
    this.closedByUs = true;
    clearTimeout(this.reconnectTimer);
    await this.dropTransport();
    this.setState('closed', 'closed by Agent Desk');
  }

  private async open(foreground: boolean): Promise<Client> {
    clearTimeout(this.reconnectTimer);
    this.closedByUs = false;
    this.setState('connecting', undefined);
    const oauth = this.oauthProvider(foreground);
    this.oauth = oauth;
    try {
      await this.refreshExpiredToken(oauth);
      let done = await this.handshake(oauth);
      if ('awaitingConsent' in done) {
        // The person consents in the browser; the code it brings back buys the tokens, then a fresh handshake.
        await done.awaitingConsent.finishAuth(await oauth!.consentCode());
        done = await this.handshake(oauth);
        if ('awaitingConsent' in done) throw new Error('the server asked for consent again right after it was given');
      }
      this.reconnectAttempt = 0;
      this.needsLogin = false;
      this.setState('connected', undefined);
      return done.client;
    } catch (caught) {
      const error = oauth ? oauth.explain(caught) : caught;
      this.needsLogin = error instanceof McpAuthRequiredError;
      const typed = error instanceof McpAuthRequiredError || error instanceof McpCrossAppAccessError;
      const reason = typed ? error.message : `connecting failed: ${messageOf(error)}${this.stderrHint()}`;
      this.lost(reason);
      throw typed ? error : new Error(reason);
    } finally {
      await oauth?.close();
    }
  }

  /** An access token known to be expired is renewed before the handshake (a refresh that fails may need consent). */
  private async refreshExpiredToken(oauth: McpOAuthProvider | undefined): Promise<void> {
    if ((await oauth?.refreshIfExpired()) !== 'REDIRECT') return;
    await auth(oauth!, { serverUrl: this.httpUrl(), authorizationCode: await oauth!.consentCode() });
  }

  /** One client and transport through `initialize` and the first tool list. */
  private async handshake(oauth: McpOAuthProvider | undefined): Promise<Handshake> {
    // Form elicitation: a server's question mid-call becomes a waiting_user prompt of the calling task.
    // applyDefaults: fields the person left empty get the defaults the server's schema names.
    const client = new Client(
      { name: 'agent-desk', version: this.options.clientVersion },
      { capabilities: { elicitation: { form: { applyDefaults: true } } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => answerElicitation(this.name, [...this.asking], request.params));
    const transport = this.makeTransport(oauth);
    // Only the current transport may mark the server dead: an old one closing late must not.
    transport.onclose = () => {
      if (this.transport === transport) this.lost(`the server ${this.describeExit()}`);
    };
    // An HTTP server that dies does not close anything: its event streams just break. Ask it.
    if (transport instanceof StreamableHTTPClientTransport) client.onerror = (error) => void this.probe(client, transport, error);
    this.transport = transport;
    try {
      // Starting a server (npx, a cold Node) can take longer than a call may: give it at least 15 s.
      await client.connect(transport, { timeout: Math.max(this.config.timeoutMs, 15_000) });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.discover(client).catch(() => undefined));
      this.client = client;
      await this.discover(client);
      return { client };
    } catch (error) {
      this.client = undefined;
      this.transport = undefined;
      await transport.close().catch(() => undefined);
      if (error instanceof UnauthorizedError && oauth?.awaitingConsent && transport instanceof StreamableHTTPClientTransport) {
        return { awaitingConsent: transport };
      }
      throw error;
    }
  }

  private oauthProvider(foreground: boolean): McpOAuthProvider | undefined {
    if (this.config.transport !== 'http' || !this.options.auth) return undefined;
    const consent = foreground ? this.options.auth.consent : undefined;
    return new McpOAuthProvider({
      server: this.name,
      url: this.config.url,
      oauth: this.config.oauth,
      secrets: this.options.auth.secrets,
      ...(consent && { consent }),
      ...(this.options.auth.identity && { identity: this.options.auth.identity }),
      clientVersion: this.options.clientVersion,
    });
  }

  private httpUrl(): string {
    return this.config.transport === 'http' ? this.config.url : '';
  }

  private async discover(client: Client): Promise<void> {
    const tools: CachedMcpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      for (const t of page.tools) {
        tools.push({
          name: t.name,
          ...(t.title !== undefined && { title: t.title }),
          ...(t.description !== undefined && { description: t.description }),
          inputSchema: t.inputSchema as Record<string, unknown>,
          ...(t.annotations !== undefined && { annotations: t.annotations as Record<string, unknown> }),
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    this.options.onTools(this.name, [...tools, ...catalogEntries(client.getServerCapabilities(), tools)]);
  }

  private makeTransport(oauth: McpOAuthProvider | undefined): Transport {
    if (this.config.transport === 'http') {
      // The SDK's default redirect policy stays: a redirect to another origin is not followed, so a token never leaves its server.
      return new StreamableHTTPClientTransport(new URL(this.config.url), {
        requestInit: { headers: this.config.headers },
        fetch: tracedFetch,
        ...(oauth && { authProvider: oauth }),
      });
    }
    const transport = new StdioClientTransport({
      command: this.config.command,
      args: this.config.args,
      env: { ...getDefaultEnvironment(), ...this.config.env },
      ...(this.config.cwd !== undefined && { cwd: this.config.cwd }),
      stderr: 'pipe',
    });
    this.stderrTail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return transport;
  }

  /**
   * After a transport error on an HTTP link (a broken event stream), pings the server: when it
   * does not answer, the link is dropped at once, so calls in flight fail now instead of at their timeout.
   */
  private async probe(client: Client, transport: Transport, error: Error): Promise<void> {
    if (this.probing || this.transport !== transport || this.stateValue !== 'connected') return;
    this.probing = true;
    try {
      await client.ping({ timeout: Math.min(this.config.timeoutMs, PROBE_TIMEOUT_MS) });
    } catch (pingError) {
      if (this.transport === transport) this.abandon(`the server stopped answering (${error.message}; ping: ${messageOf(pingError)})`);
    } finally {
      this.probing = false;
    }
  }

  /** The link is gone (exit, refused, hang): tools go unavailable and a reconnect is scheduled. */
  private lost(reason: string): void {
    this.client = undefined;
    this.transport = undefined;
    if (this.closedByUs) return;
    this.setState('failed', reason);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delays = this.options.reconnectDelaysMs;
    if (delays.length === 0 || this.reconnectTimer !== undefined) return;
    const delay = delays[Math.min(this.reconnectAttempt, delays.length - 1)]!;
    this.reconnectAttempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.stateValue === 'failed' && !this.closedByUs) void this.connect(false).catch(() => undefined);
    }, delay);
    this.reconnectTimer.unref();
  }

  /**
   * The request was sent before any of these failures: unless the server answered with an error,
   * it may have acted, so the ToolError says the effect is unknown (never re-run elsewhere unless safe).
   */
  private callFailure(tool: string, error: unknown, signal: AbortSignal, timedOut: boolean): Error {
    if (signal.aborted) return new ToolError(`call of ${tool} on "${this.name}" was cancelled`, false, 'aborted');
    // Refused before it ran (401/403 and no consent possible here): the link itself is fine.
    if (error instanceof McpAuthRequiredError) return new ToolError(error.message, true, 'mcp_auth_required');
    if (timedOut || (error instanceof McpError && error.code === ErrorCode.RequestTimeout)) {
      const reason = `did not answer ${tool} within ${this.config.timeoutMs} ms`;
      // A hung server would stall every later call too: drop it and let the router fall back.
      this.abandon(reason);
      return new ToolError(`MCP server "${this.name}" ${reason}`, true, 'mcp_timeout', true);
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new ToolError(
        `MCP server "${this.name}" went away during ${tool}: ${this.reasonValue ?? error.message}`,
        true,
        'mcp_unavailable',
        true,
      );
    }
    if (error instanceof McpError) return new ToolError(`MCP server "${this.name}" refused ${tool}: ${error.message}`, false, 'mcp_error');
    // Anything else is the link itself (refused, reset, HTTP failure): treat the server as lost.
    const reason = `failed during ${tool}: ${messageOf(error)}`;
    this.abandon(reason);
    return new ToolError(`MCP server "${this.name}" ${reason}`, true, 'mcp_unavailable', true);
  }

  /** Marks the server lost at once (so routing stops offering it), then closes the old link in the background. */
  private abandon(reason: string): void {
    const transport = this.transport;
    this.lost(reason);
    if (transport instanceof StreamableHTTPClientTransport) void transport.terminateSession().catch(() => undefined);
    void transport?.close().catch(() => undefined);
  }

  private async dropTransport(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    this.client = undefined;
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }

  private describeExit(): string {
    return `closed the connection${this.stderrHint()}`;
  }

  private stderrHint(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? ` (stderr: ${tail.slice(-400)})` : '';
  }

  private setState(state: McpServerState, reason: string | undefined): void {
    this.stateValue = state;
    this.reasonValue = reason;
    this.options.onState?.(this.name, state, reason);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
