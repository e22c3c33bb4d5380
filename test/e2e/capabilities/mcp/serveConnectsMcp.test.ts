import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../../../support/cliSandbox.js';
import { startServe } from '../../../support/serveProcess.js';
import { referenceServer } from '../../../integration/capabilities/mcp/referenceServers.js';

let cli: CliSandbox | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
});

const memoryServer = referenceServer('memory');

describe('agent-desk serve and configured MCP servers', () => {
  it('connects them at start, so the first tools.catalog lists their tools; a broken one is reported, not fatal', async () => {
    cli = new CliSandbox();
    // Written by hand: never connected, so there is no discovery cache to list tools from.
    writeFileSync(
      path.join(cli.home, 'mcp.json'),
      JSON.stringify({
        servers: {
          memory: {
            transport: 'stdio',
            command: process.execPath,
            args: [memoryServer],
            env: { MEMORY_FILE_PATH: path.join(cli.home, 'memory.jsonl') },
          },
          broken: { transport: 'stdio', command: process.execPath, args: ['-e', 'console.error("no config"); process.exit(3)'] },
        },
      }),
    );
    expect(existsSync(path.join(cli.home, 'mcp-tools.json'))).toBe(false);

    const serve = await startServe(cli);
    const client = await serve.connect();
    try {
      const { tools } = await client.call('tools.catalog', {});
      expect(tools.find((t) => t.name === 'mcp__memory__read_graph')).toMatchObject({
        tier: 'mcp',
        risk: 'read',
        availability: { available: true },
      });
      const { servers } = await client.call('mcp.servers.list', {});
      expect(servers.find((s) => s.name === 'memory')).toMatchObject({ state: 'connected' });
      expect(servers.find((s) => s.name === 'broken')).toMatchObject({ state: 'failed', reason: expect.stringContaining('no config') });
    } finally {
      client.close();
    }
  });
});
