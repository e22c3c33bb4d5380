import type { GetPromptResult, ReadResourceResult, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import {
  McpPromptSchema,
  McpResourceSchema,
  McpResourceTemplateSchema,
  type Availability,
  type McpPrompt,
  type McpResource,
} from '../../contract/index.js';
import type { AnyTool, CallClassification } from '../../runtime/tools/types.js';
import type { CachedMcpTool } from './mcpConfigFile.js';
import { mcpToolName } from './mcpToolNaming.js';

/** The read-only tools Agent Desk adds for a server's resources and prompts. */
export type CatalogToolKind = 'read_resource' | 'get_prompt';

const ReadResourceInput = z.object({ uri: z.string().min(1).max(4000) }).strict();
const GetPromptInput = z.object({ name: z.string().min(1).max(200), arguments: z.record(z.string(), z.string()).default({}) }).strict();

/** Entries for the tool cache: one per catalog the server declares, unless it has a tool of that name itself. */
export function catalogEntries(caps: ServerCapabilities | undefined, remoteTools: readonly CachedMcpTool[]): CachedMcpTool[] {
  const taken = new Set(remoteTools.map((t) => t.name));
  const entries: CachedMcpTool[] = [];
  if (caps?.resources && !taken.has('read_resource')) {
    entries.push({ name: 'read_resource', catalog: 'read_resource', inputSchema: z.toJSONSchema(ReadResourceInput) });
  }
  if (caps?.prompts && !taken.has('get_prompt')) {
    entries.push({ name: 'get_prompt', catalog: 'get_prompt', inputSchema: z.toJSONSchema(GetPromptInput) });
  }
  return entries;
}

/**
 * The part of a server connection the catalog tools use (an `McpConnection` is one). Kept
 * structural so this file need not import `mcpConnection.ts`, which imports it.
 */
export interface CatalogConnection {
  readonly name: string;
  availability(): Availability;
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult>;
}

/** The server's name for a catalog tool, as `mcp.servers.list` shows it. */
export const catalogRemoteName = (kind: CatalogToolKind): string => (kind === 'read_resource' ? 'resources/read' : 'prompts/get');

/**
 * `mcp__<server>__read_resource` / `mcp__<server>__get_prompt`: read-only tools over the server's
 * resources and prompts, so planners can use them like any tool. Their text is untrusted data.
 */
export function catalogTool(connection: CatalogConnection, kind: CatalogToolKind): AnyTool {
  const common = {
    name: mcpToolName(connection.name, kind),
    tier: 'mcp' as const,
    risk: 'read' as const,
    readOnly: true,
    idempotent: true,
    availability: () => connection.availability(),
  };
  const classification = (subject: string, summary: string): CallClassification => ({
    risks: ['read'],
    subject,
    readOnly: true,
    idempotent: true,
    insideWorkspace: false,
    preview: { summary: `${connection.name}: ${summary}` },
  });
  if (kind === 'read_resource') {
    return {
      ...common,
      title: 'Read a resource',
      description: `Read a resource by URI (MCP server "${connection.name}"; see mcp.resources.list).`,
      capabilities: [`mcp.${connection.name}.resources`],
      input: ReadResourceInput,
      classify: (args: z.infer<typeof ReadResourceInput>) => classification(args.uri, `read resource ${args.uri}`),
      execute: async (args: z.infer<typeof ReadResourceInput>, ctx) =>
        resourceOutput(connection.name, args.uri, await connection.readResource(args.uri, ctx.signal)),
    };
  }
  return {
    ...common,
    title: 'Get a prompt',
    description: `Render a prompt template with arguments (MCP server "${connection.name}"; see mcp.prompts.list).`,
    capabilities: [`mcp.${connection.name}.prompts`],
    input: GetPromptInput,
    classify: (args: z.infer<typeof GetPromptInput>) => classification(args.name, `get prompt ${args.name}`),
    execute: async (args: z.infer<typeof GetPromptInput>, ctx) =>
      promptOutput(connection.name, args.name, await connection.getPrompt(args.name, args.arguments, ctx.signal)),
  };
}

function resourceOutput(server: string, uri: string, result: ReadResourceResult): Record<string, unknown> {
  const contents = result.contents.map((c) =>
    'blob' in c ? { uri: c.uri, mimeType: c.mimeType, bytes: Math.floor((c.blob.length * 3) / 4) } : c,
  );
  const text = result.contents.flatMap((c) => ('text' in c ? [c.text] : [])).join('\n');
  return { untrusted: true, server, uri, text, contents };
}

function promptOutput(server: string, name: string, result: GetPromptResult): Record<string, unknown> {
  const messages = result.messages.map((m) => ({
    role: m.role,
    ...(m.content.type === 'text' ? { text: m.content.text } : { content: { type: m.content.type } }),
  }));
  const text = messages.flatMap((m) => ('text' in m ? [`${m.role}: ${m.text}`] : [])).join('\n');
  return {
    untrusted: true,
    server,
    prompt: name,
    ...(result.description !== undefined && { description: result.description }),
    text,
    messages,
  };
}

/** What a server lists besides tools. */
export interface McpCatalog {
  resources: McpResource[];
  resourceTemplates: z.infer<typeof McpResourceTemplateSchema>[];
  prompts: McpPrompt[];
}

/** Lists every page of a server's resources, resource templates and prompts (those it declares). */
export async function listCatalog(client: Client, timeout: number): Promise<McpCatalog> {
  const caps = client.getServerCapabilities();
  const pages = async <T>(list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> => {
    const all: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  };
  const params = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });
  const [resources, resourceTemplates, prompts] = caps
    ? await Promise.all([
        caps.resources
          ? pages(async (c) => {
              const r = await client.listResources(params(c), { timeout });
              return { items: r.resources, nextCursor: r.nextCursor };
            })
          : [],
        caps.resources
          ? pages(async (c) => {
              const r = await client.listResourceTemplates(params(c), { timeout });
              return { items: r.resourceTemplates, nextCursor: r.nextCursor };
            })
          : [],
        caps.prompts
          ? pages(async (c) => {
              const r = await client.listPrompts(params(c), { timeout });
              return { items: r.prompts, nextCursor: r.nextCursor };
            })
          : [],
      ])
    : [[], [], []];
  return {
    resources: resources.map((r) => McpResourceSchema.parse(r)),
    resourceTemplates: resourceTemplates.map((t) => McpResourceTemplateSchema.parse(t)),
    prompts: prompts.map((p) => McpPromptSchema.parse({ ...p, arguments: p.arguments ?? [] })),
  };
}
