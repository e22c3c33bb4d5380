import { CAPABILITIES } from '../../runtime/tools/capabilities.js';
import type { CachedMcpTool } from './mcpConfigFile.js';

/**
 * Tools of the reference MCP servers that do what a higher tier does, by name and the arguments
 * that make them so: the filesystem server's reads, writes and listings (`file.*`, below the
 * fs.* tools) and the fetch server's `fetch` (`web.read`, below http.request). Only tools whose
 * call with a capability's arguments does that very thing, or rejects them, are mapped:
 * `create_directory` or `move_file` would accept `{path, content}` and do something else, so
 * they keep a capability of their own (and stay offered as the only providers of it).
 */
const WELL_KNOWN: Readonly<Record<string, { capability: string; needs: readonly string[] }>> = {
  read_text_file: { capability: CAPABILITIES.fileRead, needs: ['path'] },
  read_file: { capability: CAPABILITIES.fileRead, needs: ['path'] },
  read_multiple_files: { capability: CAPABILITIES.fileRead, needs: ['paths'] },
  write_file: { capability: CAPABILITIES.fileWrite, needs: ['path', 'content'] },
  edit_file: { capability: CAPABILITIES.fileWrite, needs: ['path', 'edits'] },
  list_directory: { capability: CAPABILITIES.fileList, needs: ['path'] },
  list_directory_with_sizes: { capability: CAPABILITIES.fileList, needs: ['path'] },
  directory_tree: { capability: CAPABILITIES.fileList, needs: ['path'] },
  search_files: { capability: CAPABILITIES.fileList, needs: ['path', 'pattern'] },
  fetch: { capability: CAPABILITIES.webRead, needs: ['url'] },
};

/** The shared capabilities of a well-known MCP tool, or undefined for any other tool. */
export function wellKnownCapabilities(remote: Pick<CachedMcpTool, 'name' | 'inputSchema'>): string[] | undefined {
  const known = WELL_KNOWN[remote.name];
  if (!known) return undefined;
  const properties = remote.inputSchema.properties;
  const names = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  return known.needs.every((field) => names.includes(field)) ? [known.capability] : undefined;
}
