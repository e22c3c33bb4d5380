import { readFileSync } from 'node:fs';
import { AgentRuntime, type RuntimeOptions } from '../../runtime/agentRuntime.js';
import { loadConfig, resolveHome } from '../../runtime/config.js';
import { agentHandlers } from '../../runtime/gateway/agentHandlers.js';
import { memoryHandlers } from '../../runtime/gateway/memoryHandlers.js';
import { schedulerHandlers } from '../../runtime/gateway/schedulerHandlers.js';
import { browserRuntimeParts } from '../browser/browserRuntimeParts.js';
import { desktopRuntimeParts, reapDesktopOrphans } from '../gui/desktopRuntimeParts.js';
import { mcpRuntimeParts } from '../mcp/mcpRuntimeParts.js';
import { ProcessServiceHost } from '../services/processServices.js';

/** The package version, read once from package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * What a process needs from its runtime. `control` (list, inspect, decide) opens the store and
 * the method table only; `full` also wires MCP, the browser and desktop sandboxes and reaps
 * sandboxes a killed runtime left behind — the part that talks to Docker.
 */
export type RuntimeRole = 'full' | 'control';

/**
 * The one composition of the runtime with its real capabilities, shared by the CLI and the
 * Electron main process: data under AGENT_DESK_HOME, config from its config.json.
 */
export function openRuntime(role: RuntimeRole = 'full'): AgentRuntime {
  const home = resolveHome();
  const config = loadConfig(home);
  const version = packageVersion();
  const core: RuntimeOptions = {
    home,
    config,
    services: new ProcessServiceHost(),
    version,
    handlers: [schedulerHandlers, memoryHandlers, agentHandlers],
  };
  if (role === 'control') return new AgentRuntime(core);
  const mcp = mcpRuntimeParts(home, version);
  const browser = browserRuntimeParts(config);
  const desktop = desktopRuntimeParts({
    home,
    poolSize: config.sandbox.poolSize,
    egressAllow: config.sandbox.egressAllow,
    ...(config.sandbox.image ? { image: config.sandbox.image } : {}),
  });
  // Start-up: remove sandboxes a killed runtime of this data folder left (awaited by close).
  const reaping = reapDesktopOrphans(desktop).catch(() => []);
  const rt = new AgentRuntime({
    ...core,
    tools: [...mcp.tools, ...browser.tools, ...desktop.tools],
    handlers: [...mcp.handlers, ...(core.handlers ?? []), desktop.handlers],
    runChecks: desktop.runChecks,
    onClose: [...mcp.onClose, ...browser.onClose, async () => void (await reaping), ...desktop.onClose],
  });
  mcp.attach(rt);
  browser.attach(rt);
  desktop.attach(rt);
  return rt;
}
