import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { ModelServer, type ModelRoute } from '../../support/modelServer.js';
import { missing } from '../../support/requirements.js';

// The first thing a real user does: a goal task on a machine with Docker, where the `computer`
// tool is offered (here with no host Chromium, so pages fall to the desktop: with Chromium the
// browser tier serves them and `computer` is offered only to a task with a desktop). The wire
// servers reject what the real APIs reject, so a tool list the real services would answer with
// 400 fails here too.
const NO_HOST_CHROMIUM = { AGENT_DESK_CHROMIUM: '/nonexistent/chromium' };

const KEY = 'sk-proto-5c1e9a7b3d2f4e6a';
const CHECK = { type: 'file_contains', name: 'greeting', path: 'hello.txt', text: 'hello world' };
const KINDS: Record<ModelRoute, string> = { chat: 'openai-chat', messages: 'anthropic', responses: 'openai-responses' };
const noDocker = missing('docker');

let server: ModelServer;
let cli: CliSandbox | undefined;
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());
afterEach(async () => cli?.cleanup());

async function configure(route: ModelRoute): Promise<CliSandbox> {
  const sandbox = new CliSandbox();
  const baseUrl = route === 'messages' ? server.origin : server.url;
  const models = {
    providers: { local: { kind: KINDS[route], baseUrl, apiKeySecret: 'local-key' } },
    defaultModel: 'local:test-model',
  };
  writeFileSync(path.join(sandbox.home, 'config.json'), JSON.stringify({ models }));
  writeFileSync(path.join(sandbox.home, 'checks.json'), JSON.stringify([CHECK]));
  const setting = sandbox.spawn(['secrets', 'set', 'local-key']);
  setting.write(KEY);
  setting.child.stdin?.end();
  const set = await setting.finished(45_000);
  if (set.code !== 0) throw new Error(explain(set));
  return sandbox;
}

describe.skipIf(noDocker)(`a goal task on every wire protocol with Docker present${noDocker ? ` (skipped: ${noDocker})` : ''}`, () => {
  for (const route of ['chat', 'messages', 'responses'] as const) {
    it(`${KINDS[route]}: the tool list is accepted and the task succeeds`, async () => {
      cli = await configure(route);
      server.requests.length = 0;
      server.rejections.length = 0;
      const write = { name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } };
      server.script(route, { toolCalls: [write] }, { text: 'Wrote hello.txt.' });
      const run = await cli.run(
        ['run', '--goal', 'Write hello world into hello.txt', '--checks', path.join(cli.home, 'checks.json'), '--json'],
        {
          timeoutMs: 90_000,
          env: NO_HOST_CHROMIUM,
        },
      );
      expect(server.rejections, JSON.stringify(server.rejections)).toEqual([]);
      expect(run.code, explain(run)).toBe(0);
      const first = server.received(route)[0]!.body;
      const tools = (first.tools as Record<string, unknown>[]).map((t) => (route === 'chat' ? (t.function as Record<string, unknown>) : t));
      const computer = tools.find((t) => t.name === 'computer');
      expect(computer, 'the computer tool is offered where Docker is').toBeDefined();
      const schema = (route === 'messages' ? computer!.input_schema : computer!.parameters) as Record<string, unknown>;
      expect(schema.type).toBe('object');
    });
  }
});
