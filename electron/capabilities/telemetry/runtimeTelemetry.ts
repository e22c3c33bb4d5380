import type { Config } from '../../contract/index.js';
import { startTelemetry, type TelemetrySdk } from './otelSdk.js';
import { telemetrySettings } from './telemetrySettings.js';

/**
 * The runtime's OpenTelemetry export, when config.json or the OTEL_* variables ask for it
 * (undefined: off, and no span is made). Export problems are one line on stderr.
 */
export function runtimeTelemetry(config: Config, version: string, env: NodeJS.ProcessEnv = process.env): TelemetrySdk | undefined {
  const settings = telemetrySettings(config.telemetry, env);
  if (!settings) return undefined;
  return startTelemetry(settings, version, (line) => void process.stderr.write(`${line}\n`), env);
}
