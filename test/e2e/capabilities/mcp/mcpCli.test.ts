import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../../support/cliSandbox.js';
import { tempDir } from '../../../support/runtime.js';
import { referenceServer } from '../../../integration/capabilities/mcp/referenceServers.js';

let cli: CliSandbox | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
});

const filesystemServer = referenceServer('filesystem');

describe('agent-desk mcp servers', () => {
  it('adds a stdio server, lists and tests it, runs a playbook naming its tool, and removes it', async () => {
    cli = new CliSandbox();
    const allowed = tempDir('agent-desk-mcp-cli-');
    const added = await cli.run(['mcp', 'servers', 'add', 'fs', '--json', '--', process.execPath, filesystemServer, allowed]);
    expect(added.code, explain(added)).toBe(0);
    expect(added.json()).toMatchObject({
      name: 'fs',
      state: 'connected',
      tools: expect.arrayContaining([expect.objectContaining({ name: 'mcp__fs__list_allowed_directories', risk: 'read' })]),
    });

    const listed = await cli.run(['mcp', 'servers', 'list', '--json']);
    // A new process: tools come from the discovery cache, the server connects on first use.
    expect(listed.json()).toMatchObject({ servers: [{ name: 'fs', state: 'idle', tools: expect.any(Array) }] });

    const tested = await cli.run(['mcp', 'servers', 'test', 'fs', '--json']);
    expect(tested.json()).toMatchObject({ name: 'fs', state: 'connected', serverVersion: { name: expect.any(String) } });

    const playbook = path.join(cli.home, 'allowed.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      playbook,
      `name: allowed\nsteps:\n  - tool: mcp__fs__list_allowed_directories\n    args: {}\n    expect: [{ path: $.text, contains: "${path.basename(allowed)}" }]\n`,
    );
    const run = await cli.run(['run', playbook, '--json']);
    expect(run.code, explain(run)).toBe(0);

    const removed = await cli.run(['mcp', 'servers', 'remove', 'fs', '--json']);
    expect(removed.json()).toEqual({ removed: true });
    expect((await cli.run(['mcp', 'servers', 'list', '--json'])).json()).toEqual({ servers: [] });
  });

  it('a bad server config is refused with every problem named', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['mcp', 'servers', 'add', 'bad__name', '--url', 'ftp://nope', '--json']);
    expect(result.code).toBe(2);
    expect(result.json()).toMatchObject({ error: { code: 'invalid_params' } });
  });
});
