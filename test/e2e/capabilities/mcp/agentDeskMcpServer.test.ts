import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveMcpHttp, type McpHttpEndpoint } from '../../../../electron/capabilities/mcp/server/mcpServe.js';
import { CLI_BIN, cliEnv } from '../../../support/cliSandbox.js';
import { pollUntil } from '../../../support/poll.js';
import { openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';

const WRITE_THEN_DELETE = `name: tidy
steps:
  - tool: fs.write
    args: { path: old.log, content: old }
  - tool: fs.delete
    args: { path: old.log }
`;

const clients: Client[] = [];
let harness: TestRuntime | undefined;
let endpoint: McpHttpEndpoint | undefined;

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await endpoint?.close();
  await harness?.cleanup();
  endpoint = undefined;
  harness = undefined;
});

async function stdioClient(home: string, scopes?: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  const args = [CLI_BIN, 'mcp', 'serve', ...(scopes ? ['--scopes', scopes] : [])];
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args, env: cliEnv(home) as Record<string, string>, stderr: 'pipe' }),
  );
  clients.push(client);
  return client;
}

const resultOf = <T>(r: unknown): T => ((r as CallToolResult).structuredContent as { result: T }).result;
const textOf = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;

describe('Agent Desk as an MCP server', () => {
  it('over stdio: lists its tools, creates a task, reads its status and trace; deciding needs operator.approvals', async () => {
    const home = tempDir();
    const agent = await stdioClient(home);
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'create_task',
      'decide_approval',
      'get_task',
      'get_trace',
      'list_approvals',
      'list_tasks',
    ]);
    expect(tools.find((t) => t.name === 'get_task')?.annotations?.readOnlyHint).toBe(true);

    const created = resultOf<{ id: string }>(await agent.callTool({ name: 'create_task', arguments: { playbook: WRITE_THEN_DELETE } }));
    const approval = await pollUntil('the delete approval', async () => {
      const listed = resultOf<{ approvals: { id: string; tool: string }[] }>(
        await agent.callTool({ name: 'list_approvals', arguments: { status: 'pending' } }),
      );
      return listed.approvals[0];
    });
    expect(approval.tool).toBe('fs.delete');

    const refused = (await agent.callTool({
      name: 'decide_approval',
      arguments: { approvalId: approval.id, decision: 'approve' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^forbidden: .*operator\.approvals/);

    // A second client granted the approvals scope decides; the runner in the first server picks it up.
    const operator = await stdioClient(home, 'operator.read,operator.approvals');
    const decided = await operator.callTool({ name: 'decide_approval', arguments: { approvalId: approval.id, decision: 'approve' } });
    expect(resultOf<{ status: string }>(decided).status).toBe('approved');

    const task = await pollUntil('the task to succeed', async () => {
      const got = resultOf<{ task: { state: string } }>(await agent.callTool({ name: 'get_task', arguments: { taskId: created.id } }));
      return got.task.state === 'succeeded' ? got.task : undefined;
    });
    expect(task.state).toBe('succeeded');
    const trace = resultOf<{ events: { type: string }[] }>(await agent.callTool({ name: 'get_trace', arguments: { taskId: created.id } }));
    expect(trace.events.map((e) => e.type)).toEqual(expect.arrayContaining(['task.created', 'step.completed']));
  });

  it('over Streamable HTTP: needs the bearer token, then serves the same tools', async () => {
    harness = openTestRuntime();
    endpoint = await serveMcpHttp(harness.rt, {
      host: '127.0.0.1',
      port: 0,
      token: 's3cret-token',
      identity: { scopes: ['operator.read'], clientId: 'mcp:http' },
    });

    const stranger = new Client({ name: 'stranger', version: '1' });
    await expect(stranger.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)))).rejects.toThrow(/401|bearer/i);

    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: 'Bearer s3cret-token' } } }),
    );
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(6);
    const listed = resultOf<{ tasks: unknown[] }>(await client.callTool({ name: 'list_tasks', arguments: {} }));
    expect(listed.tasks).toEqual([]);
    // operator.read only: creating a task is refused with the scope it needs.
    const refused = (await client.callTool({ name: 'create_task', arguments: { playbook: WRITE_THEN_DELETE } })) as CallToolResult;
    expect(textOf(refused)).toMatch(/^forbidden: .*operator\.write/);
    const missing = (await client.callTool({ name: 'get_task', arguments: { taskId: 'tsk_nope' } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^not_found/);
  });
});
