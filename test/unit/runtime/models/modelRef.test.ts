import { describe, expect, it } from 'vitest';
import { ConfigSchema, type ModelsConfig } from '../../../../electron/contract/index.js';
import { parseModelRef, resolveModelRef } from '../../../../electron/runtime/models/modelRef.js';

const models = (section: unknown): ModelsConfig => ConfigSchema.parse({ models: section }).models;
const noSecrets = () => undefined;

describe('model references', () => {
  it('split at the first colon, so Ollama tags keep theirs', () => {
    expect(parseModelRef('ollama:qwen2.5:7b')).toEqual({ provider: 'ollama', model: 'qwen2.5:7b' });
    expect(() => parseModelRef('gpt-4.1')).toThrow(/is not "provider:model"/);
  });

  it('resolve a configured provider with its key from the named secret and its headers', () => {
    const spec = resolveModelRef(
      'work:gpt-4.1-mini',
      models({
        providers: {
          work: {
            kind: 'openai-responses',
            baseUrl: 'https://example.test/v1',
            apiKeySecret: 'work-key',
            headers: { 'OpenAI-Project': 'p1' },
          },
        },
      }),
      (name) => (name === 'work-key' ? 'sk-work' : undefined),
    );
    expect(spec).toEqual({
      provider: 'openai-responses',
      model: 'gpt-4.1-mini',
      baseURL: 'https://example.test/v1',
      apiKey: 'sk-work',
      headers: { 'OpenAI-Project': 'p1' },
    });
  });

  it('fall back to a preset of the same name; local presets need no key', () => {
    expect(resolveModelRef('ollama:llama3.2', models({}), noSecrets)).toEqual({
      provider: 'openai-chat',
      model: 'llama3.2',
      baseURL: 'http://127.0.0.1:11434/v1',
    });
  });

  it('name the config key to set when something is missing', () => {
    expect(() => resolveModelRef('acme:m', models({}), noSecrets)).toThrow(/unknown model provider "acme" .*models\.providers/);
    expect(() => resolveModelRef('deepseek:deepseek-chat', models({}), noSecrets)).toThrow(/models\.providers\.deepseek\.apiKeySecret/);
    expect(() => resolveModelRef('x:m', models({ providers: { x: { kind: 'anthropic', apiKeySecret: 'gone' } } }), noSecrets)).toThrow(
      /secret "gone" \(models\.providers\.x\.apiKeySecret\) is not stored/,
    );
  });

  it('are validated in the config file: provider kinds, model references and prices', () => {
    expect(() => models({ providers: { a: { kind: 'gemini' } } })).toThrow();
    expect(() => models({ defaultModel: 'no-colon' })).toThrow(/provider:model/);
    expect(() => models({ providers: { a: { kind: 'openai-chat', apiKey: 'sk-inline' } } })).toThrow(); // keys live in secrets only
    expect(
      models({ prices: { 'gpt-4.1*': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 } } }).prices['gpt-4.1*']!.outputPerMTok,
    ).toBe(8);
  });
});
