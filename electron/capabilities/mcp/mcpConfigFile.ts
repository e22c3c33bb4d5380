import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpConfigFileSchema, type McpConfigFile } from '../../contract/index.js';
import { parseJsonConfigFile } from '../../runtime/configFiles/configFileIssues.js';

/** `$AGENT_DESK_HOME/mcp.json`: the configured servers (kept apart from config.json, like other MCP hosts do). */
export const mcpConfigPath = (home: string): string => path.join(home, 'mcp.json');
/** Tools last discovered per server, so tools can be registered (and playbooks validated) before connecting. */
export const mcpToolCachePath = (home: string): string => path.join(home, 'mcp-tools.json');

/** One remote tool as last seen: enough to rebuild the Agent Desk tool without a connection. */
export interface CachedMcpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** Set for the read-only tools Agent Desk adds over the server's resources or prompts. */
  catalog?: 'read_resource' | 'get_prompt';
}

/** Reads mcp.json; a missing file is no servers, a broken one a clear error naming each problem. */
export function loadMcpConfig(home: string): McpConfigFile {
  const file = mcpConfigPath(home);
  if (!existsSync(file)) return { servers: {} };
  return parseJsonConfigFile(McpConfigFileSchema, readFileSync(file, 'utf8'), file);
}

/** Writes mcp.json atomically (it may hold header tokens: mode 0600). */
export function saveMcpConfig(home: string, config: McpConfigFile): void {
  writeAtomically(mcpConfigPath(home), `${JSON.stringify(config, null, 2)}\n`);
}

/** Last discovered tools per server (empty when never connected or unreadable: it is only a cache). */
export function loadToolCache(home: string): Record<string, CachedMcpTool[]> {
  try {
    return JSON.parse(readFileSync(mcpToolCachePath(home), 'utf8')) as Record<string, CachedMcpTool[]>;
  } catch {
    return {};
  }
}

/** Records the tools one server offers now (or forgets them with `undefined`). */
export function saveToolCache(home: string, server: string, tools: CachedMcpTool[] | undefined): void {
  const cache = loadToolCache(home);
  if (tools === undefined) delete cache[server];
  else cache[server] = tools;
  writeAtomically(mcpToolCachePath(home), JSON.stringify(cache));
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
