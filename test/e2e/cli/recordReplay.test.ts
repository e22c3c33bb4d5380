import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { tempDir } from '../../support/runtime.js';

interface RunJson {
  task: { id: string; state: string; stateReason?: string; usage: { modelCalls: number } };
}

let server: ModelServer;
let cli: CliSandbox;
let workspace: string;
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());
beforeEach(async () => {
  cli = new CliSandbox();
  server.requests.length = 0;
  const models = { providers: { local: { kind: 'openai-chat', baseUrl: server.url, apiKeySecret: 'local-key' } } };
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ models }));
  const setting = cli.spawn(['secrets', 'set', 'local-key']);
  setting.write('sk-e2e-record-0123456789');
  setting.child.stdin?.end();
  const set = await setting.finished(45_000);
  expect(set.code, explain(set)).toBe(0);
  workspace = tempDir('agent-desk-record-ws-');
  writeFileSync(path.join(workspace, 'notes.txt'), 'version 1');
  writeFileSync(path.join(cli.home, 'checks.json'), JSON.stringify([{ type: 'file_contains', path: 'out.txt', text: 'DONE' }]));
});
afterEach(async () => {
  await cli.cleanup();
  rmSync(workspace, { recursive: true, force: true });
});

async function run(args: string[]): Promise<RunJson> {
  const result = await cli.run(['run', ...args, '--workspace', workspace, '--json'], { timeoutMs: 60_000 });
  expect(result.code, explain(result)).toBe(0);
  return result.json<RunJson>();
}

describe('agent-desk run --record, then run the recorded playbook', () => {
  it('replays with no model calls, and calls the model once for the one step whose file changed', async () => {
    const recorded = path.join(cli.home, 'recorded.yaml');
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'out.txt', content: 'DONE' } }] },
      { text: 'Done.' },
    );
    const goal = ['--goal', 'Read notes.txt, then write DONE into out.txt', '--model', 'local:gpt-test'];
    const first = await run([...goal, '--checks', path.join(cli.home, 'checks.json'), '--record', recorded]);
    expect(first.task.state).toBe('succeeded');
    const yaml = readFileSync(recorded, 'utf8');
    expect(yaml).toContain('model: local:gpt-test');
    expect(yaml).toContain('tool: fs.read');
    expect(server.requests).toHaveLength(3);

    rmSync(path.join(workspace, 'out.txt'));
    const unchanged = await run([recorded]);
    expect(unchanged.task).toMatchObject({ state: 'succeeded', usage: { modelCalls: 0 } });
    expect(server.requests).toHaveLength(3);

    rmSync(path.join(workspace, 'out.txt'));
    writeFileSync(path.join(workspace, 'notes.txt'), 'version 2');
    server.script('chat', { toolCalls: [{ name: 'fs_read', arguments: { path: 'notes.txt' } }] });
    const healed = await run([recorded]);
    expect(healed.task).toMatchObject({ state: 'succeeded', usage: { modelCalls: 1 } });
    expect(server.requests).toHaveLength(4);
    expect(JSON.stringify(server.requests[3]!.body)).toContain('version 2');
  });
});
