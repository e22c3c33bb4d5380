import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../../electron/contract/index.js';
import { systemClock } from '../../../../electron/runtime/clock.js';
import { resolveModelRef } from '../../../../electron/runtime/models/modelRef.js';
import { PROVIDER_PRESETS } from '../../../../electron/runtime/models/presets.js';
import { createProvider } from '../../../../electron/runtime/models/providerFactory.js';
import { ModelServer } from '../../../support/modelServer.js';

let server: ModelServer;
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());

const PING = {
  system: 'Answer briefly.',
  tools: [],
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'ping' }] }],
};

describe('provider presets (docs/models.md), each served by the local wire-protocol server', () => {
  it.each(Object.entries(PROVIDER_PRESETS))(
    '%s: resolves through the provider factory and completes one round trip',
    async (name, preset) => {
      // The preset's own path under the local server: the SDK must append the route to it as it would there.
      const presetPath = new URL(preset.baseUrl!).pathname.replace(/\/$/, '');
      const key = `${name}-key-0123456789`;
      const models = ConfigSchema.parse({
        models: {
          providers: {
            [name]: {
              kind: preset.kind,
              baseUrl: `${server.origin}${presetPath}`,
              ...(preset.needsKey && { apiKeySecret: `${name}-key` }),
            },
          },
        },
      }).models;
      const spec = resolveModelRef(`${name}:${preset.exampleModel}`, models, (secret) => (secret === `${name}-key` ? key : undefined));
      const route = preset.kind === 'anthropic' ? 'messages' : 'chat';
      server.script(route, { text: `pong from ${name}`, usage: { input: 12, output: 3 } });
      const response = await createProvider(spec, systemClock).complete(PING, { signal: new AbortController().signal });
      expect(response.text).toBe(`pong from ${name}`);
      expect(response.usage).toMatchObject({ inputTokens: 12, outputTokens: 3 });
      const received = server.requests.at(-1)!;
      expect(received.path).toBe(`${presetPath}${route === 'chat' ? '/chat/completions' : '/v1/messages'}`);
      expect(received.body.model).toBe(preset.exampleModel);
      if (preset.needsKey) {
        // Chat Completions and this Anthropic SDK both send a bearer token (older Anthropic SDKs used x-api-key).
        const presented = received.headers.authorization ?? `Bearer ${String(received.headers['x-api-key'])}`;
        expect(presented).toBe(`Bearer ${key}`);
      }
    },
  );

  it('documents every preset in docs/models.md with its base URL', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../../../docs/models.md', import.meta.url), 'utf8');
    for (const [name, preset] of Object.entries(PROVIDER_PRESETS)) {
      expect(doc, name).toContain(`"${name}"`);
      expect(doc, name).toContain(preset.baseUrl!);
    }
  });
});
