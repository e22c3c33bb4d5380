import { describe, expect, it } from 'vitest';
import { mcpToolName, riskOfHints } from '../../../../electron/capabilities/mcp/mcpToolNaming.js';
import { McpServerConfigSchema, McpServerNameSchema } from '../../../../electron/contract/index.js';

describe('MCP tool names and risks', () => {
  it('names tools mcp__<server>__<tool>, replacing characters policy rules cannot name', () => {
    expect(mcpToolName('fs', 'read_text_file')).toBe('mcp__fs__read_text_file');
    expect(mcpToolName('web', 'search pages/v2')).toBe('mcp__web__search_pages_v2');
  });

  it('maps annotations to risk classes: readOnlyHint → read, destructiveHint → delete, otherwise write', () => {
    expect(riskOfHints({ readOnlyHint: true, destructiveHint: true })).toBe('read');
    expect(riskOfHints({ destructiveHint: true })).toBe('delete');
    expect(riskOfHints({ idempotentHint: true })).toBe('write');
    expect(riskOfHints(undefined)).toBe('write');
  });

  it('server names cannot contain "__", which would make tool names ambiguous', () => {
    expect(McpServerNameSchema.safeParse('my-server_1').success).toBe(true);
    expect(McpServerNameSchema.safeParse('a__b').success).toBe(false);
    expect(McpServerNameSchema.safeParse('').success).toBe(false);
  });

  it('server configs are validated per transport', () => {
    expect(McpServerConfigSchema.safeParse({ transport: 'http', url: 'ftp://x' }).success).toBe(false);
    expect(McpServerConfigSchema.parse({ transport: 'stdio', command: 'npx' })).toMatchObject({
      args: [],
      timeoutMs: 60_000,
      enabled: true,
    });
  });
});
