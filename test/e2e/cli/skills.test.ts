import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SkillList } from '../../../electron/contract/index.js';
import { CliSandbox, explain, useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { workspaceSkills, writeSkill } from '../../support/skillFolders.js';

const CHECK = { type: 'file_contains' as const, name: 'greeting', path: 'hello.txt', text: 'hello world' };

let server: ModelServer;
let cli: CliSandbox;
beforeAll(async () => void (server = await new ModelServer().start()));
afterAll(async () => server.close());
beforeEach(() => {
  cli = new CliSandbox();
  server.requests.length = 0;
});
afterEach(async () => cli.cleanup());

const agentDesk = (args: string[]) => cli.run(args, { timeoutMs: 60_000 });

describe('agent-desk skills list', () => {
  it('lists the user and workspace skills, and warns by name about a folder it skipped', async () => {
    const ws = path.join(cli.home, 'project');
    writeSkill(
      workspaceSkills(ws),
      'code-review',
      { name: 'code-review', description: 'Reviews a diff.', 'allowed-tools': 'fs.read fs.list' },
      'Review.',
    );
    writeSkill(workspaceSkills(ws), 'broken', { name: 'broken', description: '' }, 'x');
    writeSkill(path.join(cli.home, 'skills'), 'notes', { name: 'notes', description: 'Takes notes.' }, 'Notes.');

    const json = await agentDesk(['skills', 'list', '--workspace', ws, '--json']);
    expect(json.code, explain(json)).toBe(0);
    const list = json.json<SkillList>();
    expect(list.skills.map((s) => [s.name, s.source, s.allowedTools])).toEqual([
      ['code-review', 'workspace', ['fs.read', 'fs.list']],
      ['notes', 'user', undefined],
    ]);
    expect(list.problems).toEqual([
      {
        folder: 'broken',
        source: 'workspace',
        path: path.join(workspaceSkills(ws), 'broken', 'SKILL.md'),
        problems: ['description: must not be empty'],
      },
    ]);

    const text = await agentDesk(['skills', 'list', '--workspace', ws]);
    expect(text.code, explain(text)).toBe(0);
    expect(text.stdout).toMatch(/^code-review\s+workspace\s+Reviews a diff\.$/m);
    expect(text.stdout).toContain('allowed-tools: fs.read fs.list');
    expect(text.stderr).toContain(
      `warning: skill "broken" (workspace, ${path.join(workspaceSkills(ws), 'broken', 'SKILL.md')}) skipped: description: must not be empty`,
    );
  });

  it('says where to put skills when there are none', async () => {
    const empty = path.join(cli.home, 'empty');
    mkdirSync(empty);
    const text = await agentDesk(['skills', 'list', '--workspace', empty]);
    expect(text.code, explain(text)).toBe(0);
    expect(text.stdout).toContain('no skills: add <workspace>/.agents/skills/<name>/SKILL.md');
  });
});

describe('agent-desk tasks record --skill', () => {
  it('saves a succeeded goal run as a skill folder whose playbook replays as its SKILL.md says, with no model call', async () => {
    await useLocalModel(cli, server.url, 'sk-e2e-skills-1a2b3c');
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } }] },
      { text: 'Wrote hello.txt.' },
    );
    const checks = path.join(cli.home, 'checks.json');
    writeFileSync(checks, JSON.stringify([CHECK]));
    const run = await agentDesk(['run', '--goal', 'Write hello world into hello.txt', '--checks', checks, '--json']);
    expect(run.code, explain(run)).toBe(0);
    const taskId = run.json<{ task: { id: string } }>().task.id;

    const recorded = await agentDesk(['tasks', 'record', taskId, '--skill', 'hello-writer', '--json']);
    expect(recorded.code, explain(recorded)).toBe(0);
    const dir = path.join(cli.home, 'skills', 'hello-writer');
    expect(recorded.json()).toMatchObject({ skill: { name: 'hello-writer', dir, files: ['SKILL.md', 'playbook.yaml'] } });
    const skillMd = readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
    expect(skillMd).toContain('1. `fs.write` with `{"path":"hello.txt","content":"hello world",');
    expect(skillMd).toContain('[playbook.yaml](playbook.yaml)');

    const listed = (await agentDesk(['skills', 'list', '--json'])).json<SkillList>();
    expect(listed.skills).toEqual([expect.objectContaining({ name: 'hello-writer', source: 'user', allowedTools: ['fs.write'] })]);

    // The replay command the SKILL.md prints, run as printed (the CLI's own name stands for `agent-desk`).
    const printed = /`agent-desk (run [^`]+)`/.exec(skillMd)![1]!.split(' ');
    const modelCalls = server.requests.length;
    const replay = await agentDesk([...printed, '--json']);
    expect(replay.code, explain(replay)).toBe(0);
    expect(replay.json<{ task: { state: string } }>().task.state).toBe('succeeded');
    expect(server.requests.length).toBe(modelCalls);

    const again = await agentDesk(['tasks', 'record', taskId, '--skill', 'hello-writer']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`a skill folder already exists at ${dir}; pick another name, or pass --force to replace it`);
    const forced = await agentDesk(['tasks', 'record', taskId, '--skill', 'hello-writer', '--force']);
    expect(forced.code, explain(forced)).toBe(0);
    expect(forced.stdout).toContain(`recorded 1 steps as skill "hello-writer" in ${dir}`);

    const plain = await agentDesk(['tasks', 'record', taskId]);
    expect(plain.code, explain(plain)).toBe(0);
    expect(plain.stdout).toContain('tool: fs.write');
    expect(existsSync(path.join(dir, 'playbook.yaml'))).toBe(true);
  });
});
