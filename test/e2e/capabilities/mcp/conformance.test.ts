import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../../../support/cliSandbox.js';
import { MCP_NODE22_TOOLS, missing } from '../../../support/requirements.js';

// Installed by npm ci (tools/mcp-node22), never fetched here; AGENT_DESK_REQUIRE=mcp-tools makes its absence a failure.
const noTools = missing('mcp-tools');

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Agent Desk's MCP client as built (dist/), playing the client side of every client scenario. */
const CLIENT_SCRIPT = path.join(HERE, 'conformanceClient.mjs');
/** Scenarios that cannot pass, each with why it does not apply; a listed one that passes fails the test too (stale entry). */
const EXPECTED_FAILURES = JSON.parse(readFileSync(path.join(HERE, 'conformance-expected-failures.json'), 'utf8')) as {
  client: Record<string, string>;
  server: Record<string, string>;
};

let cli: CliSandbox | undefined;
let workDir: string | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
});

/** Runs the suite's CLI with Node 22 in a scratch folder (it writes results/ where it runs). */
function conformance(args: readonly string[]): Promise<{ code: number; output: string }> {
  const { node22, conformance: cliPath } = MCP_NODE22_TOOLS;
  workDir ??= mkdtempSync(path.join(os.tmpdir(), 'agent-desk-conformance-'));
  return new Promise((resolve) => {
    execFile(node22, [cliPath, ...args], { cwd: workDir, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output: stdout + stderr }),
    );
  });
}

/** The scenario names the installed suite lists, per side (so a scenario added by a newer suite is run, not missed). */
async function listedScenarios(): Promise<{ server: string[]; client: string[] }> {
  const { output } = await conformance(['list']);
  const [serverPart = '', clientPart = ''] = output.split(/Client scenarios/);
  const names = (text: string) => [...text.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
  return { server: names(serverPart), client: names(clientPart) };
}

/** Scenarios that failed but are not listed, and listed ones that passed. */
function againstExpected(
  results: Record<string, boolean>,
  expected: Record<string, string>,
): { unexpectedFailures: string[]; stale: string[] } {
  const entries = Object.entries(results);
  return {
    unexpectedFailures: entries.filter(([name, passed]) => !passed && !(name in expected)).map(([name]) => name),
    stale: entries.filter(([name, passed]) => passed && name in expected).map(([name]) => name),
  };
}

describe('the official MCP conformance suite', () => {
  it("every client scenario, auth included, against Agent Desk's MCP client passes or is listed as not applicable", async (ctx) => {
    if (noTools) return ctx.skip(noTools);
    const { client: scenarios } = await listedScenarios();
    expect(scenarios).toContain('auth/metadata-default');
    const results: Record<string, boolean> = {};
    const outputs: Record<string, string> = {};
    for (const scenario of scenarios) {
      const run = await conformance(['client', '--command', `${process.execPath} ${CLIENT_SCRIPT}`, '--scenario', scenario]);
      results[scenario] = run.code === 0;
      if (run.code !== 0) outputs[scenario] = run.output.slice(-3000);
    }
    const verdict = againstExpected(results, EXPECTED_FAILURES.client);
    expect(verdict, JSON.stringify(outputs, null, 1)).toEqual({ unexpectedFailures: [], stale: [] });
    // Every listed entry is a scenario the suite still has (no reason kept for something no longer run).
    expect(Object.keys(EXPECTED_FAILURES.client).filter((name) => !(name in results))).toEqual([]);
    expect(Object.values(results).filter(Boolean).length).toBe(scenarios.length - Object.keys(EXPECTED_FAILURES.client).length);
  }, 600_000);

  it('every server scenario against `agent-desk mcp serve --http` passes or is listed as not applicable; DNS rebinding protection passes', async (ctx) => {
    if (noTools) return ctx.skip(noTools);
    const { server: scenarios } = await listedScenarios();
    cli = new CliSandbox();
    const server = cli.spawn(['mcp', 'serve', '--http', '--port', '0']);
    const [, url] = await server.waitForOutput(/MCP server at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    const { token } = JSON.parse(readFileSync(path.join(cli.home, 'mcp-server.json'), 'utf8')) as { token: string };
    // The suite sends no Authorization header; the gateway also takes the token as ?token=.
    const run = await conformance(['server', '--url', `${url}?token=${encodeURIComponent(token)}`, '--suite', 'all']);
    const results = Object.fromEntries([...run.output.matchAll(/^([✓✗]) (\S+): \d+ passed/gm)].map((m) => [m[2]!, m[1] === '✓']));
    expect(Object.keys(results).sort(), run.output.slice(-3000)).toEqual([...scenarios].sort());
    expect(results['dns-rebinding-protection']).toBe(true);
    expect(againstExpected(results, EXPECTED_FAILURES.server), run.output.slice(-5000)).toEqual({ unexpectedFailures: [], stale: [] });
    expect(Object.keys(EXPECTED_FAILURES.server).filter((name) => !(name in results))).toEqual([]);
  }, 600_000);
});
