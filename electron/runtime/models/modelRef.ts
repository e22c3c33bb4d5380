import type { ModelsConfig, ProviderConfig } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';
import { PROVIDER_PRESETS } from './presets.js';
import type { ProviderSpec } from './providerFactory.js';

/** Reads a secret's clear value (the SecretStore's `get`). */
export type SecretLookup = (name: string) => string | undefined;

/** `provider:model` split at the first colon (Ollama tags such as `qwen2.5:7b` keep theirs). */
export function parseModelRef(ref: string): { provider: string; model: string } {
  const at = ref.indexOf(':');
  if (at <= 0 || at === ref.length - 1) {
    throw new AgentDeskError('invalid_params', `model reference "${ref}" is not "provider:model" (e.g. "openai:gpt-4.1-mini")`);
  }
  return { provider: ref.slice(0, at), model: ref.slice(at + 1) };
}

/**
 * The provider spec for a model reference: the configured provider of that name, else the
 * preset of that name; its key read from the named secret. Errors name the config key to set.
 */
export function resolveModelRef(ref: string, models: ModelsConfig, secret: SecretLookup): ProviderSpec {
  const { provider, model } = parseModelRef(ref);
  const configured = models.providers[provider];
  const preset = PROVIDER_PRESETS[provider];
  const config: ProviderConfig | undefined = configured ?? preset;
  if (!config) {
    const known = [...new Set([...Object.keys(models.providers), ...Object.keys(PROVIDER_PRESETS)])].sort().join(', ');
    throw new AgentDeskError(
      'invalid_params',
      `unknown model provider "${provider}" in "${ref}": add it under models.providers in config.json (known: ${known})`,
    );
  }
  return {
    provider: config.kind,
    model,
    ...(config.baseUrl && { baseURL: config.baseUrl }),
    ...(config.timeoutMs && { timeoutMs: config.timeoutMs }),
    ...(config.headers && { headers: config.headers }),
    ...(config.computerUse && { computerUse: config.computerUse }),
    ...keyFor(provider, config, !configured && preset?.needsKey === true, secret),
  };
}

function keyFor(provider: string, config: ProviderConfig, presetNeedsKey: boolean, secret: SecretLookup): { apiKey?: string } {
  if (!config.apiKeySecret) {
    if (presetNeedsKey) {
      throw new AgentDeskError(
        'invalid_params',
        `model provider "${provider}" needs an API key: set models.providers.${provider}.apiKeySecret in config.json to the name of a stored secret`,
      );
    }
    return {};
  }
  const value = secret(config.apiKeySecret);
  if (value === undefined) {
    throw new AgentDeskError(
      'invalid_params',
      `secret "${config.apiKeySecret}" (models.providers.${provider}.apiKeySecret) is not stored: set it with secrets.set`,
    );
  }
  return { apiKey: value };
}
