import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, REPO_ROOT, cliEnv, examplePlaybook, explain } from '../../support/cliSandbox.js';

let cli: CliSandbox | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
});

const sandbox = (): CliSandbox => (cli = new CliSandbox());
const write = (file: string, value: unknown): void =>
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
/** No `    at file:line` frames: errors are lines a person reads, never a stack trace. */
const STACK_FRAME = /^\s+at\s/m;

describe('agent-desk config', () => {
  it('validate passes a config.json with "$schema", and fails {"budget":{"maxStep":10}} naming budget.maxStep with exit 2', async () => {
    const c = sandbox();
    const configFile = path.join(c.home, 'config.json');
    const missing = await c.run(['config', 'validate']);
    expect(missing.code, explain(missing)).toBe(0);
    expect(missing.stdout).toBe(`${configFile} does not exist: the defaults apply\n`);

    write(configFile, { $schema: './config.schema.json', budget: { maxSteps: 20 } });
    const ok = await c.run(['config', 'validate']);
    expect(ok.code, explain(ok)).toBe(0);
    expect(ok.stdout).toBe(`${configFile}: a valid config.json\n`);

    write(configFile, { budget: { maxStep: 10 } });
    const bad = await c.run(['config', 'validate']);
    expect(bad.code, explain(bad)).toBe(2);
    expect(bad.stderr).toBe(`agent-desk: ${configFile} is not a valid config.json (1 problem):\nbudget.maxStep: unknown field\n`);

    const json = await c.run(['config', 'validate', '--json']);
    expect(json.code).toBe(2);
    expect(json.json()).toEqual({
      error: {
        code: 'invalid_params',
        message: expect.stringContaining('budget.maxStep: unknown field'),
        details: { file: configFile, kind: 'config', issues: [{ path: 'budget.maxStep', message: 'unknown field' }] },
      },
    });
  });

  it('serve and run refuse a broken config.json with one line per problem and exit 2, never a stack trace', async () => {
    const c = sandbox();
    const configFile = path.join(c.home, 'config.json');
    write(configFile, { budget: { maxStep: 10 }, gateway: { port: 'x' } });
    const expected = `agent-desk: ${configFile} is invalid (2 problems):\nbudget.maxStep: unknown field\ngateway.port: expected number, got string\n`;
    for (const args of [
      ['serve', '--port', '0'],
      ['run', examplePlaybook('inventory-report.yaml')],
      ['tasks', 'list'],
    ]) {
      const result = await c.run(args);
      expect(result.code, explain(result)).toBe(2);
      expect(result.stderr, args.join(' ')).toBe(expected);
      expect(result.stderr).not.toMatch(STACK_FRAME);
    }
    write(configFile, '{"budget": {');
    const notJson = await c.run(['run', examplePlaybook('inventory-report.yaml')]);
    expect(notJson.code, explain(notJson)).toBe(2);
    expect(notJson.stderr).toMatch(new RegExp(`^agent-desk: ${configFile} is not valid JSON: .+\\n$`));
  });

  it('validate knows mcp.json and playbooks by their names, and --kind overrides', async () => {
    const c = sandbox();
    const mcpFile = path.join(c.home, 'mcp.json');
    write(mcpFile, { $schema: './mcp.schema.json', servers: { files: { transport: 'stdio', command: 'npx', colour: 'red' } } });
    const mcp = await c.run(['config', 'validate', mcpFile]);
    expect(mcp.code, explain(mcp)).toBe(2);
    expect(mcp.stderr).toBe(`agent-desk: ${mcpFile} is not a valid mcp.json (1 problem):\nservers.files.colour: unknown field\n`);

    const draft = path.join(c.home, 'draft.json');
    write(draft, { servers: {} });
    expect((await c.run(['config', 'validate', draft])).stderr).toContain('servers: unknown field');
    const asMcp = await c.run(['config', 'validate', draft, '--kind', 'mcp', '--json']);
    expect(asMcp.code, explain(asMcp)).toBe(0);
    expect(asMcp.json()).toEqual({ file: draft, kind: 'mcp', valid: true, issues: [] });

    const playbook = await c.run(['config', 'validate', examplePlaybook('inventory-report.yaml')]);
    expect(playbook.code, explain(playbook)).toBe(0);
    const brokenPlaybook = path.join(c.home, 'broken.yaml');
    write(brokenPlaybook, 'name: x\nsteps:\n  - tool: fs.read\n    retry: 2\n');
    const broken = await c.run(['config', 'validate', brokenPlaybook]);
    expect(broken.code, explain(broken)).toBe(2);
    expect(broken.stderr).toBe(`agent-desk: ${brokenPlaybook} is not a valid playbook (1 problem):\nsteps[0].retry: unknown field\n`);

    const nowhere = await c.run(['config', 'validate', path.join(c.home, 'nope.json')]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toBe(`agent-desk: no such file: ${path.join(c.home, 'nope.json')}\n`);
    const badKind = await c.run(['config', 'validate', draft, '--kind', 'yaml']);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toBe('agent-desk: unknown kind "yaml": expected config | mcp | playbook\n');
  });

  it('schema prints exactly the shipped schema files, and path prints where config.json and mcp.json live', async () => {
    const c = sandbox();
    for (const [args, file] of [
      [['config', 'schema'], 'config.schema.json'],
      [['config', 'schema', 'mcp'], 'mcp.schema.json'],
      [['config', 'schema', 'playbook'], 'playbook.schema.json'],
    ] as const) {
      const printed = await c.run(args);
      expect(printed.code, explain(printed)).toBe(0);
      expect(printed.stdout).toBe(readFileSync(path.join(REPO_ROOT, 'schema', file), 'utf8'));
    }
    expect((await c.run(['config', 'path'])).stdout).toBe(`${path.join(c.home, 'config.json')}\n`);
    expect((await c.run(['config', 'path', 'mcp'])).stdout).toBe(`${path.join(c.home, 'mcp.json')}\n`);
  });

  it('the docs’ editor set-up works as printed: the schema copied next to config.json by the documented commands, named by a relative "$schema"', async () => {
    const c = sandbox();
    const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'configuration.md'), 'utf8');
    const copy = /```sh\n(home=[^`]*config schema >[^`]*)```/.exec(doc)?.[1];
    expect(copy, 'the copy commands in docs/configuration.md').toBeDefined();
    const bash = c.pool.spawn(
      { command: 'bash', args: ['-euc', copy ?? ''], cwd: REPO_ROOT, env: cliEnv(c.home) },
      'docs: copy the schemas',
    );
    bash.child.stdin?.end();
    const shell = await bash.finished(60_000);
    expect(shell.code, explain(shell)).toBe(0);
    expect(readFileSync(path.join(c.home, 'config.schema.json'), 'utf8')).toBe(
      readFileSync(path.join(REPO_ROOT, 'schema', 'config.schema.json'), 'utf8'),
    );
    expect(readFileSync(path.join(c.home, 'mcp.schema.json'), 'utf8')).toBe(
      readFileSync(path.join(REPO_ROOT, 'schema', 'mcp.schema.json'), 'utf8'),
    );
    write(path.join(c.home, 'config.json'), { $schema: './config.schema.json', budget: { maxSteps: 40 } });
    const ok = await c.run(['config', 'validate']);
    expect(ok.code, explain(ok)).toBe(0);
    const started = await c.run(['tasks', 'list', '--json']);
    expect(started.code, explain(started)).toBe(0);
  });

  it('mcp servers remove keeps the "$schema" line of mcp.json', async () => {
    const c = sandbox();
    const mcpFile = path.join(c.home, 'mcp.json');
    write(mcpFile, {
      $schema: './mcp.schema.json',
      servers: {
        old: { transport: 'stdio', command: 'false', enabled: false },
        kept: { transport: 'stdio', command: 'false', enabled: false },
      },
    });
    const removed = await c.run(['mcp', 'servers', 'remove', 'old', '--json']);
    expect(removed.code, explain(removed)).toBe(0);
    const after = JSON.parse(readFileSync(mcpFile, 'utf8')) as { $schema?: string; servers: Record<string, unknown> };
    expect(after.$schema).toBe('./mcp.schema.json');
    expect(Object.keys(after.servers)).toEqual(['kept']);
  });
});
