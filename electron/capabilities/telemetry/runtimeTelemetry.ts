import type { Config } from '../../contract/index.js';
import { startTelemetry, type TelemetrySdk } from './otelSdk.js';
import { telemetrySettings } from './telemetrySettings.js';

/**
 * The runtime's OpenTelemetry export, when config.json or the OTEL_* variables ask for it
 * (undefined: off, and no span is made). Export problems, and an endpoint variable that is no
 * URL, are one line on stderr.
 */
export function runtimeTelemetry(config: Config, version: string, env: NodeJS.ProcessEnv = process.env): TelemetrySdk | undefined {
  const warn = (line: string) => void process.stderr.write(`${line}\n`);
  let settings;
  try {
    settings = telemetrySettings(config.telemetry, env);
  } catch (error) {
    // A broken variable turns telemetry off, never the command.
    warn(`telemetry: off: ${(error as Error).message}`);
    return undefined;
  }
  return settings && startTelemetry(settings, version, warn, env);
}
