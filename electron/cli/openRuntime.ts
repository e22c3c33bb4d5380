import { readFileSync } from 'node:fs';
import { browserRuntimeParts } from '../capabilities/browser/browserRuntimeParts.js';
import { desktopRuntimeParts, reapDesktopOrphans } from '../capabilities/gui/desktopRuntimeParts.js';
import { mcpRuntimeParts } from '../capabilities/mcp/mcpRuntimeParts.js';
import { ProcessServiceHost } from '../capabilities/services/processServices.js';
import { AgentRuntime } from '../runtime/agentRuntime.js';
import { loadConfig, resolveHome } from '../runtime/config.js';
import { agentHandlers } from '../runtime/gateway/agentHandlers.js';
import { memoryHandlers } from '../runtime/gateway/memoryHandlers.js';
import { schedulerHandlers } from '../runtime/gateway/schedulerHandlers.js';
import { reportError } from './output.js';

/** The package version, read once from package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Opens the runtime for this process: data under AGENT_DESK_HOME, config from its config.json. */
export function openRuntime(): AgentRuntime {
  const home = resolveHome();
  const config = loadConfig(home);
  const mcp = mcpRuntimeParts(home, packageVersion());
  const browser = browserRuntimeParts(config);
  const desktop = desktopRuntimeParts({ home, poolSize: config.sandbox.poolSize, egressAllow: config.sandbox.egressAllow, ...(config.sandbox.image ? { image: config.sandbox.image } : {}) });
  // Start-up: remove sandboxes a killed runtime of this data folder left (awaited by close).
  const reaping = reapDesktopOrphans(desktop).catch(() => []);
  const rt = new AgentRuntime({
    home,
    config,
    services: new ProcessServiceHost(),
    version: packageVersion(),
    tools: [...mcp.tools, ...browser.tools, ...desktop.tools],
    handlers: [...mcp.handlers, schedulerHandlers, memoryHandlers, agentHandlers, desktop.handlers],
    runChecks: desktop.runChecks,
    onClose: [...mcp.onClose, ...browser.onClose, async () => void (await reaping), ...desktop.onClose],
  });
  mcp.attach(rt);
  browser.attach(rt);
  desktop.attach(rt);
  return rt;
}

/**
 * Runs one CLI action against the runtime: errors become the exit code (and `{error}` JSON with
 * --json), and the database is always closed.
 */
export async function withRuntime(json: boolean | undefined, action: (rt: AgentRuntime) => unknown): Promise<void> {
  const rt = openRuntime();
  try {
    await action(rt);
  } catch (error) {
    process.exitCode = reportError(error, Boolean(json));
  } finally {
    await rt.close();
  }
}
