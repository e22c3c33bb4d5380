import { describe, expect, it } from 'vitest';
import { mcpHandlers } from '../../../../electron/capabilities/mcp/mcpHandlers.js';
import type { McpManager } from '../../../../electron/capabilities/mcp/mcpManager.js';
import type { Handlers } from '../../../../electron/runtime/gateway/handlers.js';
import { createPlaybookTask } from '../../../support/runtime.js';
import { stdioServer, useMcpRuntime } from './referenceServers.js';

const mcp = useMcpRuntime();

type Call = (method: string, params: unknown) => Promise<Record<string, unknown>>;
const handlersOf = (m: McpManager): Call => {
  const table = mcpHandlers(m) as Record<string, (p: unknown) => unknown>;
  return async (method, params) => (await table[method]!(params)) as Record<string, unknown>;
};

describe('MCP resources and prompts (server-everything over stdio)', () => {
  it('are listed per server and offered as read-only tools that steps can call', async () => {
    const { harness, manager } = mcp.open();
    const status = await manager.add('everything', stdioServer('everything'));
    expect(status.state, status.reason).toBe('connected');
    expect(status.tools.filter((t) => t.remoteName === 'resources/read' || t.remoteName === 'prompts/get')).toEqual([
      expect.objectContaining({ name: 'mcp__everything__read_resource', risk: 'read' }),
      expect.objectContaining({ name: 'mcp__everything__get_prompt', risk: 'read' }),
    ]);
    expect(harness.rt.registry.get('mcp__everything__read_resource')?.readOnly).toBe(true);

    const call = handlersOf(manager);
    const { resources, resourceTemplates } = (await call('mcp.resources.list', { name: 'everything' })) as {
      resources: { uri: string; name: string }[];
      resourceTemplates: unknown[];
    };
    expect(resources.length).toBeGreaterThan(0);
    expect(resourceTemplates.length).toBeGreaterThan(0);
    const { prompts } = (await call('mcp.prompts.list', { name: 'everything' })) as { prompts: { name: string; arguments: unknown[] }[] };
    expect(prompts.find((p) => p.name === 'args-prompt')?.arguments).toMatchObject([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state' },
    ]);

    const doc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'))!;
    const task = await createPlaybookTask(
      harness.rt,
      `name: catalog
steps:
  - tool: mcp__everything__read_resource
    args: { uri: "${doc.uri}" }
  - tool: mcp__everything__get_prompt
    args: { name: args-prompt, arguments: { city: Paris } }
    expect: [{ path: $.text, contains: "What's weather in Paris?" }]
`,
    );
    const done = await harness.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const [read, prompt] = await harness.rt.engine.steps(task.id);
    expect(read!.output).toMatchObject({ untrusted: true, server: 'everything', uri: doc.uri, text: expect.stringMatching(/\S/) });
    expect(prompt!.output).toMatchObject({ untrusted: true, prompt: 'args-prompt', messages: [{ role: 'user' }] });
  });

  it('a resource the server does not have comes back as a tool error; a server that lists none gets no such tool', async () => {
    const { harness, manager } = mcp.open();
    await manager.add('everything', stdioServer('everything'));
    // server-filesystem declares no resources or prompts.
    const files = await manager.add('files', stdioServer('filesystem', [harness.home]));
    expect(files.tools.map((t) => t.name)).not.toContain('mcp__files__read_resource');
    expect(files.tools.map((t) => t.name)).not.toContain('mcp__files__get_prompt');

    const task = await createPlaybookTask(
      harness.rt,
      `name: missing\nsteps:\n  - tool: mcp__everything__read_resource\n    args: { uri: "demo://nope" }\n`,
    );
    const done = await harness.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(/MCP server "everything" refused resources\/read demo:\/\/nope/);
    await expect(handlersOf(manager)('mcp.prompts.list', { name: 'ghost' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
