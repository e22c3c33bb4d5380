import type { McpServerConfig, McpServerProbe, McpServerStatus } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import type { SecretStore } from '../../runtime/secrets/secretStore.js';
import type { ToolRegistry } from '../../runtime/tools/registry.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { loadMcpConfig, loadToolCache, saveMcpConfig, saveToolCache, type CachedMcpTool } from './mcpConfigFile.js';
import { catalogRemoteName, catalogTool, type McpCatalog } from './mcpCatalogTools.js';
import { McpConnection } from './mcpConnection.js';
import { mcpTool } from './mcpTool.js';
import { McpCrossAppAccessError, type McpPersonIdentity } from './oauth/crossAppAccess.js';
import { McpAuthRequiredError, type McpConsent } from './oauth/mcpAuthRequired.js';
import { McpOAuthStore } from './oauth/mcpOAuthStore.js';

/** How a manager is set up. */
export interface McpManagerOptions {
  /** AGENT_DESK_HOME: mcp.json and the tool cache live here. */
  home: string;
  clientVersion?: string;
  /** Default 1 s, 2 s, 5 s, 10 s, then every 30 s; [] turns reconnecting off. */
  reconnectDelaysMs?: readonly number[];
  /** Where HTTP servers' OAuth tokens and client registrations are kept (absent: no OAuth). */
  secrets?: SecretStore;
  /** Shows a consent page (the desktop opens the browser); absent, a server needing one says to run `agent-desk mcp login`. */
  consent?: McpConsent;
  /** The person cross-app access servers are called for (absent: such a server needs `agent-desk mcp login`). */
  identity?: McpPersonIdentity;
  /** The runtime's registry: discoveries register and unregister `mcp__…` tools there (absent: the manager only lists). */
  registry?: ToolRegistry;
}

const DEFAULT_RECONNECT_MS = [1000, 2000, 5000, 10_000, 30_000];
/** The server-side name of each built tool (ours may have characters replaced). */
const remoteNames = new WeakMap<AnyTool, string>();

function build(connection: McpConnection, remote: CachedMcpTool): AnyTool {
  const tool = remote.catalog ? catalogTool(connection, remote.catalog) : mcpTool(connection, remote);
  remoteNames.set(tool, remote.catalog ? catalogRemoteName(remote.catalog) : remote.name);
  return tool;
}

/**
 * The MCP servers of one runtime: reads mcp.json, keeps one connection per server and keeps the
 * registry's `mcp__<server>__<tool>` tools in step with what each server offers. Tools known
 * from an earlier discovery are registered at once (connections open on first use), so playbooks
 * naming them validate without starting every server.
 */
export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly registered = new Map<string, Map<string, AnyTool>>();
  private readonly registry: ToolRegistry | undefined;

  constructor(private readonly options: McpManagerOptions) {
    this.registry = options.registry;
  }

  /** Tools for the configured servers from the discovery cache (before any registry exists). */
  cachedTools(): AnyTool[] {
    const cache = loadToolCache(this.options.home);
    const tools: AnyTool[] = [];
    for (const [name, config] of Object.entries(loadMcpConfig(this.options.home).servers)) {
      const connection = this.connectionFor(name, config);
      const built = new Map((cache[name] ?? []).map((remote) => [remote.name, build(connection, remote)] as const));
      this.registered.set(name, new Map([...built.values()].map((t) => [t.name, t])));
      tools.push(...built.values());
    }
    return tools;
  }

  /** Connects every enabled configured server; failures are recorded on the server, not thrown. */
  async connectAll(): Promise<McpServerStatus[]> {
    const servers = loadMcpConfig(this.options.home).servers;
    await Promise.all(
      Object.entries(servers)
        .filter(([, config]) => config.enabled)
        .map(([name, config]) =>
          this.connectionFor(name, config)
            .connect(false)
            .catch(() => undefined),
        ),
    );
    return this.list();
  }

  /** Every configured server with its state and tools. */
  list(): McpServerStatus[] {
    const servers = loadMcpConfig(this.options.home).servers;
    return Object.entries(servers).map(([name, config]) => this.status(name, this.connectionFor(name, config)));
  }

  /** Saves a server and connects to it; a refused connection is reported in the status, not thrown. */
  async add(name: string, config: McpServerConfig, replace = false): Promise<McpServerStatus> {
    const file = loadMcpConfig(this.options.home);
    if (file.servers[name] && !replace) {
      throw new AgentDeskError('conflict', `an MCP server named "${name}" exists; remove it first or pass replace`, { name });
    }
    await this.drop(name);
    saveMcpConfig(this.options.home, { ...file, servers: { ...file.servers, [name]: config } });
    const connection = this.connectionFor(name, config);
    if (config.enabled) await connection.connect().catch(() => undefined);
    return this.status(name, connection);
  }

  /** Disconnects, unregisters the tools and removes the server from mcp.json. */
  async remove(name: string): Promise<boolean> {
    const file = loadMcpConfig(this.options.home);
    const existed = name in file.servers;
    await this.drop(name);
    if (existed) {
      const { [name]: _removed, ...rest } = file.servers;
      saveMcpConfig(this.options.home, { ...file, servers: rest });
    }
    saveToolCache(this.options.home, name, undefined);
    this.forgetOAuth(name, file.servers[name]);
    return existed;
  }

  /**
   * Authorizes Agent Desk with an HTTP server through `consent` (its page printed or opened,
   * the browser coming back to a loopback listener): tokens land in the secret store and the
   * server is connected. Tokens still valid (or refreshable) need no page; `fresh` forgets them first.
   * A cross-app access server needs no page: `identity` (the person signed in at its IdP) buys the token.
   */
  async login(name: string, consent: McpConsent, fresh = false, identity?: McpPersonIdentity): Promise<McpServerStatus> {
    const config = loadMcpConfig(this.options.home).servers[name];
    if (!config) throw new AgentDeskError('not_found', `no MCP server named "${name}" in mcp.json`, { name });
    if (config.transport !== 'http')
      throw new AgentDeskError('invalid_params', `MCP server "${name}" is a stdio server: OAuth is for HTTP servers`, { name });
    if (!this.options.secrets) throw new AgentDeskError('unavailable', 'this runtime keeps no secrets: OAuth tokens have nowhere to go');
    if (fresh) new McpOAuthStore(this.options.secrets, name, config.url).forgetTokens();
    await this.drop(name);
    const connection = this.connectionFor(name, config, consent, identity);
    try {
      await connection.connect();
    } catch (error) {
      if (error instanceof McpCrossAppAccessError || error instanceof McpAuthRequiredError) throw error;
      throw new AgentDeskError('unavailable', `MCP server "${name}": ${(error as Error).message}`, { name });
    }
    return this.status(name, connection);
  }

  /** Forgets a server's OAuth tokens and client registration (the next use needs a login); true when any were stored. */
  async logout(name: string): Promise<boolean> {
    const config = loadMcpConfig(this.options.home).servers[name];
    if (!config) throw new AgentDeskError('not_found', `no MCP server named "${name}" in mcp.json`, { name });
    await this.drop(name);
    return this.forgetOAuth(name, config);
  }

  private forgetOAuth(name: string, config: McpServerConfig | undefined): boolean {
    if (config?.transport !== 'http' || !this.options.secrets) return false;
    return new McpOAuthStore(this.options.secrets, name, config.url).forgetAll();
  }

  /** Connects to a configured server and lists its tools, resources and prompts. */
  async test(name: string): Promise<McpServerProbe> {
    const connection = await this.connected(name);
    const { resources, prompts } = await this.catalogOf(connection);
    const version = connection.serverVersion;
    return { ...this.status(name, connection), resources, prompts, ...(version && { serverVersion: version }) };
  }

  /** What one server lists besides tools (connecting it if needed). */
  async catalog(name: string): Promise<McpCatalog> {
    return this.catalogOf(await this.connected(name));
  }

  private async connected(name: string): Promise<McpConnection> {
    const config = loadMcpConfig(this.options.home).servers[name];
    if (!config) throw new AgentDeskError('not_found', `no MCP server named "${name}" in mcp.json`, { name });
    const connection = this.connectionFor(name, config);
    try {
      await connection.connect();
    } catch (error) {
      if (error instanceof McpAuthRequiredError || error instanceof McpCrossAppAccessError) throw error;
      throw new AgentDeskError('unavailable', `MCP server "${name}": ${(error as Error).message}`, { name });
    }
    return connection;
  }

  private async catalogOf(connection: McpConnection): Promise<McpCatalog> {
    try {
      return await connection.catalog();
    } catch (error) {
      throw new AgentDeskError('unavailable', `MCP server "${connection.name}" did not list its catalog: ${(error as Error).message}`, {
        name: connection.name,
      });
    }
  }

  /** The live connection of a server (tests use it to find a stdio server's pid). */
  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  /** Closes every connection (stops stdio servers). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  private connectionFor(
    name: string,
    config: McpServerConfig,
    consent = this.options.consent,
    identity = this.options.identity,
  ): McpConnection {
    const existing = this.connections.get(name);
    if (existing && JSON.stringify(existing.config) === JSON.stringify(config)) return existing;
    if (existing) void existing.close();
    const secrets = this.options.secrets;
    const connection = new McpConnection(name, config, {
      clientVersion: this.options.clientVersion ?? '0.0.0',
      reconnectDelaysMs: this.options.reconnectDelaysMs ?? DEFAULT_RECONNECT_MS,
      onTools: (server, tools) => this.syncTools(server, tools),
      ...(secrets && { auth: { secrets, ...(consent && { consent }), ...(identity && { identity }) } }),
    });
    this.connections.set(name, connection);
    return connection;
  }

  /** Brings the registry in line with a fresh tool list: new tools in, vanished ones out, changed ones replaced. */
  private syncTools(server: string, tools: CachedMcpTool[]): void {
    saveToolCache(this.options.home, server, tools);
    const connection = this.connections.get(server);
    if (!connection) return;
    const next = new Map(tools.map((remote) => build(connection, remote)).map((t) => [t.name, t] as const));
    const previous = this.registered.get(server) ?? new Map<string, AnyTool>();
    this.registered.set(server, next);
    if (!this.registry) return;
    for (const name of previous.keys()) {
      if (this.registry.get(name) === previous.get(name)) this.registry.unregister(name);
    }
    for (const tool of next.values()) {
      if (this.registry.get(tool.name)) this.registry.unregister(tool.name);
      this.registry.register(tool);
    }
  }

  private async drop(name: string): Promise<void> {
    const connection = this.connections.get(name);
    this.connections.delete(name);
    await connection?.close();
    const tools = this.registered.get(name);
    this.registered.delete(name);
    for (const tool of tools?.values() ?? []) {
      if (this.registry?.get(tool.name) === tool) this.registry.unregister(tool.name);
    }
  }

  private status(name: string, connection: McpConnection): McpServerStatus {
    const tools = [...(this.registered.get(name)?.values() ?? [])];
    return {
      name,
      transport: connection.config.transport,
      enabled: connection.config.enabled,
      state: connection.state,
      ...(connection.reason !== undefined && { reason: connection.reason }),
      tools: tools.map((t) => ({ name: t.name, remoteName: remoteNames.get(t) ?? t.name, description: t.description, risk: t.risk })),
    };
  }
}
