import type { McpServerStatus } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import type { RuntimeModule } from '../../runtime/core/runtimeModule.js';
import type { SecretStore } from '../../runtime/secrets/secretStore.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { mcpHandlers } from './mcpHandlers.js';
import { McpManager } from './mcpManager.js';
import type { McpConsent } from './oauth/mcpAuthRequired.js';

/** The MCP client as a runtime module, with its manager (`mcp login` and `serve` drive it). */
export type McpModule = RuntimeModule & { manager: McpManager };

/**
 * The MCP client wired for one runtime: tools from the last discovery (servers connect on first
 * use), the `mcp.servers.*` handlers, and closing every connection with the runtime. A broken
 * mcp.json does not stop the runtime: MCP tools are left out and `mcp servers list` reports it.
 */
export function mcpModule(core: Pick<RuntimeCore, 'home' | 'version' | 'registry'>, secrets: SecretStore, consent?: McpConsent): McpModule {
  const manager = new McpManager({
    home: core.home,
    clientVersion: core.version,
    secrets,
    registry: core.registry,
    ...(consent && { consent }),
  });
  let tools: AnyTool[] = [];
  try {
    tools = manager.cachedTools();
  } catch (error) {
    process.stderr.write(`agent-desk: MCP servers left out: ${(error as Error).message}\n`);
  }
  return { name: 'mcp', manager, tools, handlers: mcpHandlers(manager), close: () => manager.close() };
}

/**
 * Connects every enabled configured MCP server (a long-lived gateway does this at start, so
 * `tools.catalog` lists their tools at once). A server that fails is reported by
 * `mcp.servers.list` with its reason and reconnected with backoff; it never stops the start.
 */
export async function connectConfiguredMcpServers(manager: McpManager | undefined): Promise<McpServerStatus[]> {
  if (!manager) return [];
  try {
    return await manager.connectAll();
  } catch (error) {
    process.stderr.write(`agent-desk: MCP servers not connected: ${(error as Error).message}\n`);
    return [];
  }
}
