import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, cliEnv } from '../../../support/cliSandbox.js';
import { MCP_NODE22_TOOLS, missing } from '../../../support/requirements.js';
import { tempDir } from '../../../support/runtime.js';
import { runInspector } from './inspectorCli.js';

// Installed by npm ci (tools/mcp-node22), never fetched here; AGENT_DESK_REQUIRE=mcp-tools makes its absence a failure.
const noInspector = missing('mcp-tools');
const tool = MCP_NODE22_TOOLS;

describe('the official MCP Inspector CLI against `agent-desk mcp serve`', () => {
  it('lists the tools and calls them', async (ctx) => {
    if (noInspector) return ctx.skip(noInspector);
    const home = tempDir();
    // The Inspector keeps a catalog file; keep it out of the user's home.
    const env = { ...cliEnv(home), MCP_CATALOG_PATH: path.join(home, 'inspector-catalog.json') };
    const server = ['-e', `AGENT_DESK_HOME=${home}`, process.execPath, CLI_BIN, 'mcp', 'serve'];

    const list = await runInspector(tool, [...server, '--method', 'tools/list'], env);
    expect(list.code).toBe(0);
    const listed = list.output as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['create_task', 'get_task', 'get_trace', 'list_approvals', 'decide_approval']),
    );

    const created = (
      await runInspector(
        tool,
        [
          ...server,
          '--method',
          'tools/call',
          '--tool-name',
          'create_task',
          '--tool-arg',
          'playbook=name: hi\nsteps:\n  - tool: echo\n    args: { value: 1 }\n',
        ],
        env,
      )
    ).output as { structuredContent: { result: { id: string } } };
    const taskId = created.structuredContent.result.id;
    expect(taskId).toMatch(/^tsk_/);

    const got = (
      await runInspector(tool, [...server, '--method', 'tools/call', '--tool-name', 'get_task', '--tool-arg', `taskId=${taskId}`], env)
    ).output as {
      structuredContent: { result: { task: { id: string } } };
    };
    expect(got.structuredContent.result.task.id).toBe(taskId);

    const denied = await runInspector(
      tool,
      [...server, '--method', 'tools/call', '--tool-name', 'decide_approval', '--tool-arg', 'approvalId=apr_x', 'decision=approve'],
      env,
    );
    // Without operator.approvals the call is a tool error the Inspector reports (and exits non-zero on).
    expect(denied.code).not.toBe(0);
    expect(denied.output).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^forbidden: .*operator\.approvals/) }] });
    // Four Inspector runs, each a Node 22 start plus an agent-desk start: slow on a loaded 2-core machine.
  }, 240_000);
});
