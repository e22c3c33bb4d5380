import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../../../support/cliSandbox.js';
import { MCP_NODE22_TOOLS, missing } from '../../../support/requirements.js';

// Installed by npm ci (tools/mcp-node22), never fetched here; AGENT_DESK_REQUIRE=mcp-tools makes its absence a failure.
const noTools = missing('mcp-tools');

/** The scenarios of the official suite that apply to a server with Agent Desk's own tools. */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

let cli: CliSandbox | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
});

function conformance(url: string, scenario: string): Promise<{ code: number; output: string }> {
  const { node22, conformance: cliPath } = MCP_NODE22_TOOLS;
  return new Promise((resolve) => {
    execFile(node22, [cliPath, 'server', '--url', url, '--scenario', scenario], { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output: stdout + stderr }),
    );
  });
}

describe('the official MCP conformance suite against `agent-desk mcp serve --http`', () => {
  it('passes initialize, ping, tools/list and DNS rebinding protection', async (ctx) => {
    if (noTools) return ctx.skip(noTools);
    cli = new CliSandbox();
    const server = cli.spawn(['mcp', 'serve', '--http', '--port', '0']);
    const [, url] = await server.waitForOutput(/MCP server at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    const { token } = JSON.parse(readFileSync(path.join(cli.home, 'mcp-server.json'), 'utf8')) as { token: string };
    // The suite sends no Authorization header; the gateway also takes the token as ?token=.
    const target = `${url}?token=${encodeURIComponent(token)}`;
    for (const scenario of SCENARIOS) {
      const run = await conformance(target, scenario);
      expect({ scenario, code: run.code }, run.output).toEqual({ scenario, code: 0 });
      expect(run.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    }
  }, 240_000);
});
