import type { Handlers } from '../../runtime/gateway/handlers.js';
import type { McpManager } from './mcpManager.js';

/** `mcp.servers.*` methods over the runtime's MCP manager. */
export function mcpHandlers(manager: McpManager): Handlers {
  return {
    'mcp.servers.list': () => ({ servers: manager.list() }),
    'mcp.servers.add': (p) => manager.add(p.name, p.server, p.replace),
    'mcp.servers.remove': async (p) => ({ removed: await manager.remove(p.name) }),
    'mcp.servers.test': (p) => manager.test(p.name),
  };
}
