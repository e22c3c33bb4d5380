import { execFile } from 'node:child_process';
import { MCP_NODE22_TOOLS } from '../../../support/requirements.js';

/** The MCP Inspector CLI and the Node 22 it needs (installed by `npm ci` into tools/mcp-node22). */
export type Inspector = Pick<typeof MCP_NODE22_TOOLS, 'node22' | 'inspector'>;

/** Runs `inspector --cli <args>` with Node 22: its exit code (non-zero when a tool returned isError) and parsed JSON output. */
export function runInspector(tool: Inspector, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: unknown }> {
  return new Promise((resolve, reject) => {
    execFile(tool.node22, [tool.inspector, '--cli', ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      try {
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output: JSON.parse(stdout) });
      } catch {
        reject(new Error(`inspector printed no JSON (${error?.message ?? 'exit 0'}):\n${stdout}\n${stderr}`));
      }
    });
  });
}
