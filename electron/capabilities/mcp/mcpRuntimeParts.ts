import type { McpServerStatus } from '../../contract/index.js';
import type { AgentRuntime } from '../../runtime/agentRuntime.js';
import type { Handlers } from '../../runtime/gateway/handlers.js';
import type { SecretStore } from '../../runtime/secrets/secretStore.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { mcpHandlers } from './mcpHandlers.js';
import { McpManager } from './mcpManager.js';
import type { McpConsent } from './oauth/mcpAuthRequired.js';

/** What an entry point adds to RuntimeOptions for MCP, plus `attach` once the runtime exists. */
export interface McpRuntimeParts {
  manager: McpManager;
  tools: readonly AnyTool[];
  handlers: readonly ((rt: AgentRuntime) => Handlers)[];
  onClose: readonly (() => Promise<void>)[];
  attach(rt: AgentRuntime): void;
}

/**
 * The MCP client wired for one runtime: tools from the last discovery (servers connect on first
 * use), the `mcp.servers.*` handlers, and closing every connection with the runtime. A broken
 * mcp.json does not stop the runtime: MCP tools are left out and `mcp servers list` reports it.
 */
export function mcpRuntimeParts(home: string, version: string, secrets: SecretStore, consent?: McpConsent): McpRuntimeParts {
  const manager = new McpManager({ home, clientVersion: version, secrets, ...(consent && { consent }) });
  let tools: AnyTool[] = [];
  try {
    tools = manager.cachedTools();
  } catch (error) {
    process.stderr.write(`agent-desk: MCP servers left out: ${(error as Error).message}\n`);
  }
  return {
    manager,
    tools,
    handlers: [() => mcpHandlers(manager)],
    onClose: [() => manager.close()],
    attach: (rt) => {
      manager.attach(rt.registry);
      managers.set(rt, manager);
    },
  };
}

const managers = new WeakMap<AgentRuntime, McpManager>();

/** The MCP manager a full runtime was composed with (`mcp login` drives it); a control runtime has none. */
export function mcpManagerOf(rt: AgentRuntime): McpManager | undefined {
  return managers.get(rt);
}

/**
 * Connects every enabled configured MCP server of a runtime (a long-lived gateway does this at
 * start, so `tools.catalog` lists their tools at once). A server that fails is reported by
 * `mcp.servers.list` with its reason and reconnected with backoff; it never stops the start.
 */
export async function connectConfiguredMcpServers(rt: AgentRuntime): Promise<McpServerStatus[]> {
  const manager = managers.get(rt);
  if (!manager) return [];
  try {
    return await manager.connectAll();
  } catch (error) {
    process.stderr.write(`agent-desk: MCP servers not connected: ${(error as Error).message}\n`);
    return [];
  }
}
