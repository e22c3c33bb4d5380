import { statSync } from 'node:fs';
import type { Config } from '../../contract/index.js';
import { configFilePath, loadConfig } from '../config.js';

/**
 * The one way the runtime reads its config. `startup` is what the process started with
 * (sections read once: budget, gateway, scheduler, sandbox, browser, durability, telemetry);
 * `current()` is what `<home>/config.json` says now, so `settings.set` applies to the next
 * task without a restart. See docs/architecture.md, "The core" (Config).
 */
export interface ConfigSource {
  readonly startup: Config;
  current(): Config;
}

/** A config that never changes (a runtime with no config file behind it). */
export function fixedConfigSource(config: Config): ConfigSource {
  return { startup: config, current: () => config };
}

/**
 * `current()` re-reads `<home>/config.json` only when the file changed (inode, size, mtime);
 * with no file it is the start-up config. A broken file is a clear error, as at start-up.
 */
export function fileConfigSource(home: string, startup: Config): ConfigSource {
  const file = configFilePath(home);
  let seen = '';
  let last = startup;
  return {
    startup,
    current() {
      const stamp = fileStamp(file);
      if (stamp === undefined) return startup;
      if (stamp !== seen) {
        last = loadConfig(home);
        seen = stamp;
      }
      return last;
    },
  };
}

function fileStamp(file: string): string | undefined {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return undefined;
  }
}
