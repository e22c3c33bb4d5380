import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The MCP Inspector CLI (needs Node 22), installed on demand outside the repo and reused. */
export interface Inspector {
  node22: string;
  launcher: string;
}

const CACHE = path.join(process.env.TMPDIR ?? os.tmpdir(), 'agent-desk-inspector');

function locate(): Inspector | undefined {
  const node22 = path.join(CACHE, 'node_modules', 'node', 'bin', 'node');
  const launcher = path.join(CACHE, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  if (!existsSync(node22) || !existsSync(launcher)) return undefined;
  try {
    return execFileSync(node22, ['--version'], { encoding: 'utf8' }).startsWith('v22.') ? { node22, launcher } : undefined;
  } catch {
    return undefined;
  }
}

/** The Inspector, installing `@modelcontextprotocol/inspector@2` and `node@22` into the cache first if needed; else why not. */
export function inspector(): Inspector | { skip: string } {
  const found = locate();
  if (found) return found;
  try {
    execFileSync('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '@modelcontextprotocol/inspector@2', 'node@22'], {
      stdio: 'pipe',
      timeout: 600_000,
    });
  } catch (error) {
    return { skip: `installing the MCP Inspector into ${CACHE} failed: ${(error as Error).message.split('\n')[0]}` };
  }
  return locate() ?? { skip: `the MCP Inspector install in ${CACHE} has no Node 22 binary or launcher` };
}

/** Runs `inspector --cli <args>` with Node 22: its exit code (non-zero when a tool returned isError) and parsed JSON output. */
export function runInspector(tool: Inspector, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: unknown }> {
  return new Promise((resolve, reject) => {
    execFile(tool.node22, [tool.launcher, '--cli', ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      try {
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output: JSON.parse(stdout) });
      } catch {
        reject(new Error(`inspector printed no JSON (${error?.message ?? 'exit 0'}):\n${stdout}\n${stderr}`));
      }
    });
  });
}
