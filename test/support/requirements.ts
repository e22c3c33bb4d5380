import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * External parts some tests need. `script` is util-linux's pseudo-terminal wrapper, `tmpfs`
 * the right to mount a small tmpfs (a full or read-only disk), `dockerd` the right to start a
 * second Docker engine, and `inspector` the MCP Inspector with its Node 22 (dev dependencies).
 */
export type Requirement = 'docker' | 'chromium' | 'xvfb' | 'script' | 'tmpfs' | 'dockerd' | 'inspector';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const required = new Set(
  (process.env.AGENT_DESK_REQUIRE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Where `npm ci` (the root postinstall) puts the MCP Inspector and the Node 22 it runs on. */
const INSPECTOR_MODULES = path.join(REPO_ROOT, 'tools', 'mcp-inspector', 'node_modules');
/** The MCP Inspector's launcher and its Node 22 binary. */
export const INSPECTOR = {
  node22: path.join(INSPECTOR_MODULES, 'node', 'bin', 'node'),
  launcher: path.join(INSPECTOR_MODULES, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js'),
};

const firstLine = (error: unknown): string => (error as Error).message.split('\n')[0] ?? '';

function probeScript(): string | undefined {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.error) return `util-linux "script" is not installed (${probe.error.message}); apt-get install util-linux`;
  if (probe.status !== 0 || !probe.stdout.includes('util-linux')) return `"script" is not util-linux's (${(probe.stdout + probe.stderr).trim()})`;
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

function probeInspector(): string | undefined {
  if (!existsSync(INSPECTOR.node22) || !existsSync(INSPECTOR.launcher))
    return 'the MCP Inspector or its Node 22 is not installed in tools/mcp-inspector (npm ci installs them)';
  try {
    const version = execFileSync(INSPECTOR.node22, ['--version'], { encoding: 'utf8' });
    return version.startsWith('v22.') ? undefined : `${INSPECTOR.node22} is ${version.trim()}, not Node 22`;
  } catch (error) {
    return `${INSPECTOR.node22} does not run (${firstLine(error)})`;
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
    if (what === 'inspector') return probeInspector();
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
