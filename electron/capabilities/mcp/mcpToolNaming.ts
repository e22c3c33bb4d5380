import type { RiskClass } from '../../contract/index.js';

/** `mcp__<server>__<tool>`, with characters outside `[A-Za-z0-9_.-]` replaced so policy rules can name it. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

/** MCP tool annotations Agent Desk reads. They are the server's word: policy rules can still ask or deny any tool. */
export interface McpToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The risk class of a remote tool: readOnlyHint → read, destructiveHint → delete, otherwise write. */
export function riskOfHints(hints: McpToolHints | undefined): RiskClass {
  if (hints?.readOnlyHint === true) return 'read';
  if (hints?.destructiveHint === true) return 'delete';
  return 'write';
}
