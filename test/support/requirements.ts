import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * External parts some tests need. `script` is util-linux's pseudo-terminal wrapper, `tmpfs`
 * the right to mount a small tmpfs (a full or read-only disk), `dockerd` the right to start a
 * second Docker engine, `mcp-tools` the MCP Inspector and conformance suite with their Node 22, and
 * `postgres` the run's throw-away PostgreSQL cluster (started by test/support/postgresCluster.ts),
 * `runsc` gVisor's runtime binary, with the right to start a second dockerd that registers it.
 */
export type Requirement = 'docker' | 'chromium' | 'xvfb' | 'script' | 'tmpfs' | 'dockerd' | 'mcp-tools' | 'postgres' | 'runsc';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const required = new Set(
  (process.env.AGENT_DESK_REQUIRE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Where `npm ci` (the root postinstall) puts the MCP tools that need Node 22, and that Node. */
const MCP_TOOLS = path.join(REPO_ROOT, 'tools', 'mcp-node22', 'node_modules');
/** The Node 22 binary, the MCP Inspector's launcher and the MCP conformance suite's CLI. */
export const MCP_NODE22_TOOLS = {
  node22: path.join(MCP_TOOLS, 'node', 'bin', 'node'),
  inspector: path.join(MCP_TOOLS, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js'),
  conformance: path.join(MCP_TOOLS, '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
};

const firstLine = (error: unknown): string => (error as Error).message.split('\n')[0] ?? '';

function probeScript(): string | undefined {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.error) return `util-linux "script" is not installed (${probe.error.message}); apt-get install util-linux`;
  if (probe.status !== 0 || !probe.stdout.includes('util-linux'))
    return `"script" is not util-linux's (${(probe.stdout + probe.stderr).trim()})`;
  return undefined;
}

function probeTmpfs(): string | undefined {
  if (process.platform !== 'linux') return 'mounting a tmpfs needs Linux';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs here (${firstLine(error)}); it needs root with CAP_SYS_ADMIN`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function probeDockerd(): string | undefined {
  if (process.getuid?.() !== 0) return 'starting a second dockerd needs root';
  if (spawnSync('which', ['dockerd']).status !== 0) return 'no dockerd binary (apt-get install docker.io)';
  return probe('docker');
}

/** gVisor's runsc (Debian `runsc`) beside a dockerd this process may start: the runsc tests register it on a second engine. */
function probeRunsc(): string | undefined {
  const version = spawnSync('runsc', ['--version'], { encoding: 'utf8' });
  if (version.error) return `no runsc binary (${version.error.message}); apt-get install runsc`;
  if (version.status !== 0 || !version.stdout.startsWith('runsc version'))
    return `runsc --version said ${(version.stdout + version.stderr).trim()}`;
  return probeDockerd();
}

function probeMcpTools(): string | undefined {
  const absent = Object.values(MCP_NODE22_TOOLS).filter((file) => !existsSync(file));
  if (absent.length > 0) return `not installed: ${absent.join(', ')} (npm ci installs tools/mcp-node22)`;
  const { node22 } = MCP_NODE22_TOOLS;
  try {
    const version = execFileSync(node22, ['--version'], { encoding: 'utf8' });
    return version.startsWith('v22.') ? undefined : `${node22} is ${version.trim()}, not Node 22`;
  } catch (error) {
    return `${node22} does not run (${firstLine(error)})`;
  }
}

function probe(what: Requirement): string | undefined {
  try {
    if (what === 'docker') execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'pipe', timeout: 10_000 });
    if (what === 'chromium' && !existsSync(process.env.AGENT_DESK_CHROMIUM ?? '/usr/bin/chromium'))
      return 'no Chromium at /usr/bin/chromium (apt-get install chromium)';
    if (what === 'xvfb') execFileSync('which', ['Xvfb'], { stdio: 'pipe' });
    if (what === 'script') return probeScript();
    if (what === 'tmpfs') return probeTmpfs();
    if (what === 'dockerd') return probeDockerd();
    if (what === 'mcp-tools') return probeMcpTools();
    if (what === 'runsc') return probeRunsc();
    if (what === 'postgres')
      return process.env.AGENT_DESK_TEST_POSTGRES
        ? undefined
        : (process.env.AGENT_DESK_TEST_POSTGRES_MISSING ?? 'no test PostgreSQL cluster');
    return undefined;
  } catch (error) {
    return `${what} is not available here (${firstLine(error)})`;
  }
}

/**
 * Whether a test needing `what` should skip, and why. When AGENT_DESK_REQUIRE names it (CI),
 * a missing part throws instead, so CI can never pass by skipping.
 */
export function missing(what: Requirement): string | undefined {
  const reason = probe(what);
  if (reason && required.has(what)) throw new Error(`AGENT_DESK_REQUIRE includes ${what}, but ${reason}`);
  return reason;
}
