import type { Handlers } from '../../runtime/gateway/handlers.js';
import type { McpManager } from './mcpManager.js';

/** `mcp.servers.*` methods over the runtime's MCP manager. */
export function mcpHandlers(manager: McpManager): Handlers {
  return {
    'mcp.servers.list': () => ({ servers: manager.list() }),
    'mcp.servers.add': (p) => manager.add(p.name, p.server, p.replace),
    'mcp.servers.remove': async (p) => ({ removed: await manager.remove(p.name) }),
    'mcp.servers.test': (p) => manager.test(p.name),
    'mcp.resources.list': async (p) => {
      const { resources, resourceTemplates } = await manager.catalog(p.name);
      return { server: p.name, resources, resourceTemplates };
    },
    'mcp.prompts.list': async (p) => ({ server: p.name, prompts: (await manager.catalog(p.name)).prompts }),
  };
}
