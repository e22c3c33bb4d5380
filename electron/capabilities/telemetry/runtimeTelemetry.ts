import type { Config } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import type { SecretStore } from '../../runtime/secrets/secretStore.js';
import { startTelemetry, type TelemetrySdk } from './otelSdk.js';
import { telemetrySettings, type TelemetrySettings } from './telemetrySettings.js';

const SECRET_REF = /\$\{secret:([A-Za-z0-9][A-Za-z0-9._-]*)\}/g;

/**
 * The runtime's OpenTelemetry export, when config.json or the OTEL_* variables ask for it
 * (undefined: off, and no span is made). Export problems, an endpoint variable that is no URL
 * and a header naming a secret that is not stored are one line on stderr, never a failed command.
 */
export function runtimeTelemetry(
  config: Config,
  version: string,
  secrets: SecretStore,
  env: NodeJS.ProcessEnv = process.env,
): TelemetrySdk | undefined {
  const warn = (line: string) => void process.stderr.write(`${line}\n`);
  let settings: TelemetrySettings | undefined;
  try {
    settings = telemetrySettings(config.telemetry, env);
    if (settings) settings = { ...settings, headers: withSecrets(settings.headers, secrets) };
  } catch (error) {
    warn(`telemetry: off: ${(error as Error).message}`);
    return undefined;
  }
  return settings && startTelemetry(settings, version, warn, env);
}

/** Header values may name stored secrets (`"authorization": "Bearer ${secret:otel}"`), so no key sits in config.json. */
export function withSecrets(headers: Record<string, string>, secrets: SecretStore): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value.replace(SECRET_REF, (_ref, secret: string) => {
      const stored = secrets.get(secret);
      if (stored === undefined) {
        throw new AgentDeskError(
          'invalid_params',
          `telemetry.otlp.headers.${name} names the secret "${secret}", which is not stored (agent-desk secrets set ${secret})`,
        );
      }
      return stored;
    });
  }
  return out;
}
