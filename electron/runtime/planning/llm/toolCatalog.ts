import { toModelToolSchema } from '../../models/toolSchema.js';
import type { ModelToolDefinition } from '../../models/types.js';
import { describeTool } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/types.js';

/** The pseudo-tool a model calls to stop with a reason instead of guessing. */
export const GIVE_UP = 'give_up';

const giveUpDefinition: ModelToolDefinition = {
  name: GIVE_UP,
  description: 'Stop the task because it cannot be done with the tools offered. Say why.',
  inputSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'], additionalProperties: false },
};

/** Tools as the model sees them, with wire-safe names mapped back to runtime tools. */
export interface ToolCatalog {
  definitions: ModelToolDefinition[];
  byWireName: ReadonlyMap<string, AnyTool>;
  wireName(tool: string): string;
}

/** Provider function names allow `[A-Za-z0-9_-]` only, so `fs.read` goes out as `fs_read`. */
export function toWireName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/** Builds the catalog from the tools the router offers; definitions are sorted for a stable prefix. */
export function buildCatalog(tools: readonly AnyTool[]): ToolCatalog {
  const byWireName = new Map<string, AnyTool>();
  for (const tool of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
    const wire = toWireName(tool.name);
    if (!byWireName.has(wire) && wire !== GIVE_UP) byWireName.set(wire, tool);
  }
  const definitions = [...byWireName.entries()].map(([name, tool]) => definitionOf(name, tool));
  definitions.push(giveUpDefinition);
  definitions.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { definitions, byWireName, wireName: toWireName };
}

function definitionOf(name: string, tool: AnyTool): ModelToolDefinition {
  const descriptor = describeTool(tool);
  const traits = [`risk: ${tool.risk}`, tool.readOnly ? 'read-only' : 'has side effects'].join(', ');
  return { name, description: `${tool.description} (${traits})`, inputSchema: toModelToolSchema(withoutMeta(descriptor.inputSchema)) };
}

/** `$schema` adds bytes and nothing a model uses. */
function withoutMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
