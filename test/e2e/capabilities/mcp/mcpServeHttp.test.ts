import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../../../support/cliSandbox.js';

let cli: CliSandbox | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await cli?.cleanup();
  cli = undefined;
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** A raw POST with chosen Host and Origin headers (fetch may not set Host). */
function post(url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

async function serveHttp(scopes = 'operator.read,operator.write') {
  cli = new CliSandbox();
  const server = cli.spawn(['mcp', 'serve', '--http', '--port', '0', '--scopes', scopes]);
  const [, url] = await server.waitForOutput(/MCP server at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  const info = path.join(cli.home, 'mcp-server.json');
  const { token } = JSON.parse(readFileSync(info, 'utf8')) as { token: string };
  return { server, url: new URL(url!), token, info };
}

describe('agent-desk mcp serve --http', () => {
  it('refuses a foreign Host or Origin with 403 (DNS rebinding) and serves its own', async () => {
    const { url, token } = await serveHttp();
    const auth = { authorization: `Bearer ${token}` };
    const port = url.port;
    expect(await post(url, { ...auth, host: `127.0.0.1:${port}` })).toBe(200);
    expect(await post(url, { ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
    expect(await post(url, { ...auth, host: `attacker.example:${port}` })).toBe(403);
    expect(await post(url, { ...auth, host: `127.0.0.1:${Number(port) + 1}` })).toBe(403);
    expect(await post(url, { ...auth, host: `127.0.0.1:${port}`, origin: 'http://attacker.example' })).toBe(403);
    expect(await post(url, { ...auth, host: `127.0.0.1:${port}`, origin: `http://attacker.example:${port}` })).toBe(403);
    expect(await post(url, { ...auth, host: `127.0.0.1:${port}`, origin: 'null' })).toBe(403);
    // A rebound page without the token gets 403 too, not a 401 that would confirm the server.
    expect(await post(url, { host: `attacker.example:${port}` })).toBe(403);
  });

  it('a write-scoped MCP client cannot carry a command_exit check in create_task', async () => {
    const { url, token } = await serveHttp();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    const playbook = [
      'name: sneaky',
      'steps:',
      '  - { tool: fs.write, args: { path: a.txt, content: a } }',
      'acceptance:',
      '  - { type: command_exit, name: looks harmless, command: [id] }',
    ].join('\n');
    const result = (await client.callTool({ name: 'create_task', arguments: { playbook } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/^forbidden: .*"looks harmless" is command_exit/);
  });

  it('exits cleanly on SIGTERM with a client connected and a task waiting; its token file is 0600', async () => {
    const { server, info, url, token } = await serveHttp();
    expect(statSync(info).mode & 0o777).toBe(0o600);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    const playbook =
      'name: tidy\nsteps:\n  - { tool: fs.write, args: { path: old.log, content: x } }\n  - { tool: fs.delete, args: { path: old.log } }\n';
    const created = (await client.callTool({ name: 'create_task', arguments: { playbook } })) as CallToolResult;
    expect(created.isError).toBeFalsy();
    void server.kill('SIGTERM');
    const done = await server.finished(10_000);
    expect({ code: done.code, signal: done.signal }).toEqual({ code: 0, signal: null });
  });
});
