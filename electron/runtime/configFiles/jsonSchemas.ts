import { z } from 'zod';
import { ConfigSchema, McpConfigFileSchema, PlaybookSchema } from '../../contract/index.js';

/** The user-written files Agent Desk publishes a JSON Schema for. */
export const CONFIG_FILE_KINDS = ['config', 'mcp', 'playbook'] as const;
/** One of those files. */
export type ConfigFileKind = (typeof CONFIG_FILE_KINDS)[number];

/** Each kind's zod schema (the one source) and the title an editor shows for it. */
const SOURCES: Record<ConfigFileKind, { schema: z.ZodType; title: string; description: string }> = {
  config: {
    schema: ConfigSchema,
    title: 'Agent Desk config.json',
    description: 'The runtime configuration ($AGENT_DESK_HOME/config.json). Every key is optional; unknown keys are errors.',
  },
  mcp: {
    schema: McpConfigFileSchema,
    title: 'Agent Desk mcp.json',
    description: 'The MCP servers Agent Desk connects to ($AGENT_DESK_HOME/mcp.json).',
  },
  playbook: {
    schema: PlaybookSchema,
    title: 'Agent Desk playbook',
    description: 'A YAML playbook: steps (tool + args + expectations) and acceptance checks, run with no model.',
  },
};

/** The file name the schema ships under in the package's `schema/` folder. */
export const schemaFileName = (kind: ConfigFileKind): string => `${kind}.schema.json`;

/**
 * The JSON Schema of what a person writes (zod's input side: keys with defaults are optional and
 * show their default). Draft-07, the newest draft the YAML language server supports.
 */
export function jsonSchemaFor(kind: ConfigFileKind): Record<string, unknown> {
  const { schema, title, description } = SOURCES[kind];
  return z.toJSONSchema(schema.meta({ title, description }), { io: 'input', target: 'draft-7' });
}

/** The exact text of `schema/<kind>.schema.json`; the checked-in files must equal it. */
export const schemaFileText = (kind: ConfigFileKind): string => `${JSON.stringify(jsonSchemaFor(kind), null, 2)}\n`;

/** Whether a CLI argument names a kind. */
export const isConfigFileKind = (value: string): value is ConfigFileKind => (CONFIG_FILE_KINDS as readonly string[]).includes(value);
