import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../../electron/runtime/models/anthropicMessages.js';
import { OpenAiResponsesProvider } from '../../../../electron/runtime/models/openaiResponses.js';
import type { ModelProvider } from '../../../../electron/runtime/models/types.js';
import { chatProvider, createGoalTask, openLlmRuntime } from '../../../support/llmRuntime.js';
import { ModelServer, type ModelRoute } from '../../../support/modelServer.js';
import type { TestRuntime } from '../../../support/runtime.js';

let server: ModelServer;
let h: TestRuntime | undefined;
beforeEach(async () => void (server = await new ModelServer().start()));
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  await server.close();
});

const protocols: { name: string; route: ModelRoute; provider: () => ModelProvider }[] = [
  {
    name: 'OpenAI Responses (reasoning summary items)',
    route: 'responses',
    provider: () => new OpenAiResponsesProvider({ model: 'gpt-test', baseURL: server.url, apiKey: 'sk-test' }),
  },
  { name: 'Chat Completions (reasoning_content, as DeepSeek and Qwen send it)', route: 'chat', provider: () => chatProvider(server.url) },
  {
    name: 'Anthropic Messages (thinking blocks)',
    route: 'messages',
    provider: () => new AnthropicProvider({ model: 'claude-test', baseURL: server.origin, apiKey: 'sk-ant-test' }),
  },
];

describe('the model’s reasoning summaries, text and answer become task events', () => {
  for (const protocol of protocols) {
    it(`over ${protocol.name}, in the order the model gave them, on the real SDK`, async () => {
      server.script(
        protocol.route,
        {
          reasoning: 'The file has to exist before anything reads it.',
          text: 'Writing the file.',
          toolCalls: [{ id: 'call_w', name: 'fs_write', arguments: { path: 'a.txt', content: 'a' } }],
        },
        { reasoning: 'The write succeeded; nothing is left.', text: 'Wrote a.txt.' },
      );
      const harness = openLlmRuntime(protocol.provider());
      h = harness;
      const task = await createGoalTask(harness.rt, 'Write a into a.txt');
      const done = await harness.rt.engine.run(task.id);
      expect(done.state, done.stateReason).toBe('succeeded');
      expect(done.answer).toBe('Wrote a.txt.');
      expect((await harness.rt.engine.events(task.id)).map((e) => [e.kind, e.text])).toEqual([
        ['model.reasoning', 'The file has to exist before anything reads it.'],
        ['model.text', 'Writing the file.'],
        ['model.reasoning', 'The write succeeded; nothing is left.'],
        ['answer', 'Wrote a.txt.'],
      ]);
      expect(server.rejections).toEqual([]);
    });
  }
});
