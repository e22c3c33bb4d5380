import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposeChecks } from '../../../../electron/runtime/planning/llm/intent.js';
import { chatProvider } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';

let server: ModelServer;
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());

describe('intent: acceptance checks proposed by the model', () => {
  it('answers an answer without a proposal once, then takes the corrected proposal', async () => {
    server.script(
      'chat',
      { text: 'I think a file should exist.', usage: { input: 100, output: 10 } },
      {
        toolCalls: [{ name: 'propose_checks', arguments: { checks: [{ type: 'file_exists', path: 'report.json' }] } }],
        usage: { input: 150, output: 20 },
      },
    );
    const outcome = await proposeChecks(chatProvider(server.url), 'Write report.json', new AbortController().signal);
    expect(outcome).toMatchObject({ ok: true, checks: [{ type: 'file_exists', path: 'report.json', exists: true }], calls: 2 });
    expect(outcome.usage).toEqual({ inputTokens: 250, outputTokens: 30, cachedInputTokens: 0 });
    const [first, second] = server.received('chat');
    expect(JSON.stringify(first!.body.tools)).toContain('propose_checks');
    const retry = second!.body.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(retry.at(-1))).toContain('no propose_checks call in the answer');
  });
});
