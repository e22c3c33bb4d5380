import { readFileSync } from 'node:fs';
import { ProcessServiceHost } from '../capabilities/services/processServices.js';
import { AgentRuntime } from '../runtime/agentRuntime.js';
import { loadConfig, resolveHome } from '../runtime/config.js';
import { reportError } from './output.js';

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
