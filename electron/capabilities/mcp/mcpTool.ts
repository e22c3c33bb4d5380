import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ToolError, type AnyTool, type CallClassification } from '../../runtime/tools/types.js';
import type { CachedMcpTool } from './mcpConfigFile.js';
import type { McpConnection, McpProgress } from './mcpConnection.js';
import { mcpToolName, riskOfHints, type McpToolHints } from './mcpToolNaming.js';
import { wellKnownCapabilities } from './mcpWellKnown.js';

/** What an MCP tool returns to the step: the server's content, marked as untrusted data. */
export interface McpToolOutput {
  /** Always true: text from a server is data for the planner, never instructions. */
  untrusted: true;
  server: string;
  tool: string;
  /** The text items joined, for expectations and planners. */
  text: string;
  content: unknown[];
  structuredContent?: unknown;
  progress?: McpProgress;
}

const PREVIEW_ARGS_CHARS = 2000;

/** Builds the Agent Desk tool (tier `mcp`) that calls `remote` on the connection's server. */
export function mcpTool(connection: McpConnection, remote: CachedMcpTool): AnyTool {
  const hints = remote.annotations as McpToolHints | undefined;
  const risk = riskOfHints(hints);
  const readOnly = risk === 'read';
  const idempotent = readOnly || hints?.idempotentHint === true;
  const name = mcpToolName(connection.name, remote.name);
  // mcp.json may say what a tool provides; else a reference server's tool shares the tiers' capabilities; else its own.
  const capabilities = connection.config.capabilities[remote.name] ??
    wellKnownCapabilities(remote) ?? [`mcp.${connection.name}.${remote.name}`];
  return {
    name,
    title: remote.title ?? String(remote.annotations?.title ?? remote.name),
    description: `${remote.description ?? remote.name} (MCP server "${connection.name}")`,
    tier: 'mcp',
    capabilities,
    risk,
    readOnly,
    idempotent,
    input: inputSchemaOf(remote.inputSchema),
    classify: (args: Record<string, unknown>): CallClassification => ({
      risks: [risk],
      subject: subjectOf(args),
      readOnly,
      idempotent,
      // The server acts outside Agent Desk's workspace confinement, so a write here asks by default.
      insideWorkspace: false,
      preview: {
        summary: `${connection.name}: ${remote.name}${subjectOf(args) ? ` ${subjectOf(args)}` : ''} (${risk})`,
        body: JSON.stringify(args, null, 2).slice(0, PREVIEW_ARGS_CHARS),
      },
    }),
    availability: () => connection.availability(),
    execute: async (args: Record<string, unknown>, ctx) => {
      let progress: McpProgress | undefined;
      const onProgress = (p: McpProgress): void => {
        progress = p;
        ctx.progress?.(p);
      };
      const result = await connection.callTool(remote.name, args, {
        signal: ctx.signal,
        onProgress,
        ...(ctx.askUser && { asker: { taskId: ctx.taskId, askUser: ctx.askUser } }),
      });
      const output = outputOf(connection.name, remote.name, result, progress);
      if (result.isError === true) {
        throw new ToolError(`${name} returned an error: ${output.text || 'no message'}`, false, 'mcp_tool_error');
      }
      return output;
    },
  };
}

/** The server's JSON Schema as zod (arguments are checked before anything is sent); lenient when it cannot be converted. */
function inputSchemaOf(schema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(schema) as z.ZodType<Record<string, unknown>>;
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

/** What policy rules match: the path, URI or URL the call names, if any. */
function subjectOf(args: Record<string, unknown>): string {
  for (const key of ['path', 'uri', 'url', 'source', 'destination']) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return '';
}

function outputOf(server: string, tool: string, result: CallToolResult, progress: McpProgress | undefined): McpToolOutput {
  const content = (result.content ?? []).map(compactContent);
  const text = (result.content ?? [])
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
  return {
    untrusted: true,
    server,
    tool,
    text,
    content,
    ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
    ...(progress && { progress }),
  };
}

/** Binary payloads (images, audio, blobs) are summarised: step records stay small. */
function compactContent(item: CallToolResult['content'][number]): unknown {
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
    return { type: item.type, mimeType: item.mimeType, bytes: Math.floor((item.data.length * 3) / 4) };
  }
  if (item.type === 'resource' && 'blob' in item.resource) {
    return { type: 'resource', uri: item.resource.uri, bytes: Math.floor((item.resource.blob.length * 3) / 4) };
  }
  return item;
}
