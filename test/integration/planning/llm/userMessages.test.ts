import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../../electron/runtime/models/anthropicMessages.js';
import { OpenAiResponsesProvider } from '../../../../electron/runtime/models/openaiResponses.js';
import type { ModelProvider } from '../../../../electron/runtime/models/types.js';
import { chatProvider, createGoalTask, openLlmRuntime } from '../../../support/llmRuntime.js';
import { ModelServer, type ModelRoute } from '../../../support/modelServer.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';

let server: ModelServer;
let h: TestRuntime | undefined;
beforeEach(async () => void (server = await new ModelServer().start()));
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  await server.close();
});

const protocols: { name: string; route: ModelRoute; provider: () => ModelProvider }[] = [
  { name: 'Chat Completions', route: 'chat', provider: () => chatProvider(server.url) },
  {
    name: 'OpenAI Responses',
    route: 'responses',
    provider: () => new OpenAiResponsesProvider({ model: 'gpt-test', baseURL: server.url, apiKey: 'sk-test' }),
  },
  {
    name: 'Anthropic Messages',
    route: 'messages',
    provider: () => new AnthropicProvider({ model: 'claude-test', baseURL: server.origin, apiKey: 'sk-ant-test' }),
  },
];

describe('a message sent mid-task, on every wire protocol (strict servers)', () => {
  for (const protocol of protocols) {
    it(`over ${protocol.name}: it follows the tool result in the next request and keeps its place after the next turn`, async () => {
      const harness = openLlmRuntime(protocol.provider());
      h = harness;
      let taskId = '';
      let said = false;
      const speak = () => said || ((said = true), harness.rt.engine.message(taskId, 'Use blue, not red.'));
      harness.rt.registry.register(testTool({ name: 'paint', run: async () => (speak(), { painted: true }) }));
      server.script(
        protocol.route,
        { toolCalls: [{ id: 'call_p1', name: 'paint', arguments: { value: 'red' } }] },
        { toolCalls: [{ id: 'call_p2', name: 'paint', arguments: { value: 'blue' } }] },
        { text: 'Painted it blue.' },
      );
      taskId = (await createGoalTask(harness.rt, 'Paint the fence')).id;
      const done = await harness.rt.engine.run(taskId);
      expect(done.state, done.stateReason).toBe('succeeded');
      expect(server.rejections).toEqual([]);
      const bodies = server.received(protocol.route).map((r) => JSON.stringify(r.body));
      expect(bodies[0]).not.toContain('Use blue');
      for (const body of bodies.slice(1)) {
        expect(body.match(/Use blue, not red\./g)).toHaveLength(1);
        expect(body.indexOf('call_p1')).toBeLessThan(body.indexOf('Use blue'));
      }
      expect(bodies[2]!.indexOf('Use blue')).toBeLessThan(bodies[2]!.indexOf('call_p2'));
    });
  }
});
