import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CliSandbox, explain } from '../../../support/cliSandbox.js';
import { OtlpReceiver } from '../../../support/otlpReceiver.js';

interface McpRequest {
  headers: IncomingHttpHeaders;
  body: { method?: string; params?: { name?: string; _meta?: Record<string, unknown> } } | undefined;
}

/** A real MCP server (the SDK's, stateless Streamable HTTP) with one read-only `echo` tool, recording every request. */
async function recordingMcpServer(): Promise<{ url: string; requests: McpRequest[]; server: Server }> {
  const requests: McpRequest[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as McpRequest['body']) : undefined;
    requests.push({ headers: req.headers, body });
    const mcp = new McpServer({ name: 'rec', version: '1.0.0' });
    mcp.registerTool(
      'echo',
      { description: 'Echoes the text it is given', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
      async ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, requests, server };
}

let mcp: Awaited<ReturnType<typeof recordingMcpServer>>;
let receiver: OtlpReceiver;
let otlpUrl: string;
let cli: CliSandbox;
beforeAll(async () => {
  mcp = await recordingMcpServer();
  receiver = new OtlpReceiver();
  otlpUrl = await receiver.start();
});
afterAll(async () => {
  await new Promise<void>((resolve) => mcp.server.close(() => resolve()));
  await receiver.close();
});
beforeEach(async () => {
  cli = new CliSandbox();
  mcp.requests.length = 0;
  receiver.requests.length = 0;
  const add = await cli.run(['mcp', 'servers', 'add', 'rec', '--url', mcp.url], { timeoutMs: 30_000 });
  expect(add.code, explain(add)).toBe(0);
});
afterEach(async () => cli.cleanup());

async function runEcho(env: NodeJS.ProcessEnv) {
  const playbook = path.join(cli.home, 'echo.yaml');
  writeFileSync(
    playbook,
    'name: echo\nsteps:\n  - tool: mcp__rec__echo\n    args: { text: hello }\n    expect: [{ path: $.text, contains: hello }]\n',
  );
  const run = await cli.run(['run', playbook, '--json'], { timeoutMs: 60_000, env });
  expect(run.code, explain(run)).toBe(0);
  const calls = mcp.requests.filter((r) => r.body?.method === 'tools/call');
  expect(calls.map((c) => c.body?.params?.name)).toEqual(['echo']);
  return calls[0]!;
}

describe('trace context to MCP servers over Streamable HTTP', () => {
  it('the tools/call request carries the execute_tool span as traceparent header and in _meta', async () => {
    const call = await runEcho({ OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl });
    const tool = receiver.spans().find((s) => s.attributes['gen_ai.tool.name'] === 'mcp__rec__echo');
    expect(tool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'agent_desk.tool.tier': 'mcp',
      'agent_desk.step.status': 'completed',
    });
    const traceparent = `00-${tool!.traceId}-${tool!.spanId}-01`;
    expect(call.headers.traceparent).toBe(traceparent);
    expect(call.body?.params?._meta?.traceparent).toBe(traceparent);
    // Requests made outside a step (initialize, tools/list) carry no trace of a step.
    const outside = mcp.requests.filter((r) => r.body?.method === 'initialize' || r.body?.method === 'tools/list');
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.map((r) => r.headers.traceparent)).toEqual(outside.map(() => undefined));
  });

  it('with telemetry off nothing is added', async () => {
    const call = await runEcho({});
    expect(call.headers.traceparent).toBeUndefined();
    expect(call.body?.params?._meta?.traceparent).toBeUndefined();
    expect(receiver.requests).toEqual([]);
  });
});
