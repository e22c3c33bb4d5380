import { openRuntime, type OpenRuntimeOptions, type ProductRuntime, type RuntimeRole } from '../capabilities/composition/openRuntime.js';
import { reportError } from './output.js';

export { openRuntime, packageVersion } from '../capabilities/composition/openRuntime.js';

/**
 * Runs one CLI action against the runtime: errors become the exit code (and `{error}` JSON with
 * --json), and the database is always closed. `control` commands skip MCP, browser and Docker.
 */
export async function withRuntime(
  json: boolean | undefined,
  action: (rt: ProductRuntime) => unknown,
  role: RuntimeRole = 'full',
  options: OpenRuntimeOptions = {},
): Promise<void> {
  const rt = await openRuntime(role, options);
  try {
    await action(rt);
  } catch (error) {
    process.exitCode = reportError(error, Boolean(json));
  } finally {
    await rt.close();
  }
}

/** `withRuntime` for commands that only read or record decisions: no MCP, browser or Docker. */
export function withControlRuntime(json: boolean | undefined, action: (rt: ProductRuntime) => unknown): Promise<void> {
  return withRuntime(json, action, 'control');
}
