import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain, useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { RecordingServer } from '../../support/recordingServer.js';
import { filesHolding } from '../../support/secretSearch.js';

const MODEL_KEY = 'sk-e2e-2c4e6a8b0d1f3a5c7e9b';
const TOKEN = 'tok_e2e_8Jm3Qw6Zr1Xv5Nb9Kp2';

let models: ModelServer;
let api: RecordingServer;
let cli: CliSandbox;
const printed: string[] = [];
beforeAll(async () => {
  models = await new ModelServer().start();
  api = new RecordingServer((req) => ({ echoed: req.headers.authorization }));
  await api.start();
});
afterAll(async () => Promise.all([models.close(), api.close()]));
beforeEach(async () => {
  cli = new CliSandbox();
  printed.length = 0;
  await useLocalModel(cli, models.url, MODEL_KEY);
});
afterEach(async () => cli.cleanup());

async function agentDesk(args: string[], stdin?: string) {
  const child = cli.spawn(args);
  if (stdin !== undefined) child.write(stdin);
  child.child.stdin?.end();
  const result = await child.finished(60_000);
  printed.push(result.stdout, result.stderr);
  return result;
}

describe('agent-desk secrets set --host', () => {
  it('binds a secret to hosts, lists them, and a goal run sends ${secret:name} only there', async () => {
    const host = `127.0.0.1:${api.port}`;
    const set = await agentDesk(['secrets', 'set', 'gh', '--host', host, '--host', '*.example.org'], TOKEN);
    expect(set.code, explain(set)).toBe(0);
    expect(set.stdout).toBe(`stored secret gh (may be sent to *.example.org, ${host})\n`);
    const list = await agentDesk(['secrets', 'list']);
    expect(list.stdout).toContain(`gh  → *.example.org, ${host}`);

    models.script(
      'chat',
      {
        toolCalls: [{ name: 'http_request', arguments: { url: `http://${host}/user`, headers: { authorization: 'token ${secret:gh}' } } }],
      },
      {
        toolCalls: [
          {
            name: 'http_request',
            arguments: { url: `http://localhost:${api.port}/user`, headers: { authorization: 'token ${secret:gh}' } },
          },
        ],
      },
      { text: 'Done.' },
    );
    const checks = path.join(cli.home, 'checks.json');
    writeFileSync(checks, JSON.stringify([{ type: 'file_exists', path: 'nothing.txt', exists: false }]));
    writeFileSync(
      path.join(cli.home, 'config.json'),
      JSON.stringify({
        models: {
          providers: { local: { kind: 'openai-chat', baseUrl: models.url, apiKeySecret: 'local-key' } },
          defaultModel: 'local:gpt-test',
        },
        policy: { networkAllow: ['127.0.0.1:*', 'localhost:*'] },
      }),
    );
    const run = await agentDesk(['run', '--goal', 'Who am I on the API? Use ${secret:gh}.', '--checks', checks, '--json']);
    expect(run.code, explain(run)).toBe(0);
    const report = JSON.parse(run.stdout) as { task: { id: string } };

    expect(api.requests.map((r) => [r.url, r.headers.authorization])).toEqual([['/user', `token ${TOKEN}`]]);
    const shown = await agentDesk(['tasks', 'show', report.task.id, '--json']);
    expect(shown.stdout).toContain('secret_not_allowed');
    expect(shown.stdout).toContain('token [secret:gh]');
    expect(JSON.stringify(models.received('chat').map((r) => r.body))).not.toContain(TOKEN);
    expect(printed.join('\n')).not.toContain(TOKEN);
    expect(filesHolding(cli.home, TOKEN).map((f) => path.basename(f))).toEqual([]);
  });
});
