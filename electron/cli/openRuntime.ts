import { readFileSync } from 'node:fs';
import { ProcessServiceHost } from '../capabilities/services/processServices.js';
import { AgentRuntime } from '../runtime/agentRuntime.js';
import { loadConfig, resolveHome } from '../runtime/config.js';

/** The package version, read once from package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Opens the runtime for this process: data under AGENT_DESK_HOME, config from its config.json. */
export function openRuntime(): AgentRuntime {
  const home = resolveHome();
  return new AgentRuntime({ home, config: loadConfig(home), services: new ProcessServiceHost(), version: packageVersion() });
}
