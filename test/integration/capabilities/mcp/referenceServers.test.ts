import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPlaybookTask, tempDir } from '../../../support/runtime.js';
import { httpServer, stdioServer, useMcpRuntime } from './referenceServers.js';

const mcp = useMcpRuntime();

describe('MCP client against the official reference servers', () => {
  it('server-filesystem over stdio: tools discovered with risks from annotations, a write and a read run as steps', async () => {
    const allowed = tempDir('agent-desk-mcp-allowed-');
    const { harness, manager } = mcp.open({ policy: { rules: { allow: ['mcp__fs__*'] } } });
    const status = await manager.add('fs', stdioServer('filesystem', [allowed]));
    expect(status.state).toBe('connected');
    const risks = Object.fromEntries(status.tools.map((t) => [t.name, t.risk]));
    expect(risks['mcp__fs__read_text_file']).toBe('read');
    expect(risks['mcp__fs__write_file']).toBe('delete'); // destructiveHint: true
    expect(harness.rt.registry.get('mcp__fs__list_directory')?.tier).toBe('mcp');

    const file = path.join(allowed, 'note.txt');
    const task = await createPlaybookTask(
      harness.rt,
      `name: fs-roundtrip
steps:
  - tool: mcp__fs__write_file
    args: { path: "${file}", content: "hello from agent desk" }
  - id: read
    tool: mcp__fs__read_text_file
    args: { path: "${file}" }
    expect: [{ path: $.text, contains: hello from agent desk }]
`,
    );
    const done = await harness.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(readFileSync(file, 'utf8')).toBe('hello from agent desk');
    const read = (await harness.rt.engine.steps(task.id)).find((s) => s.tool === 'mcp__fs__read_text_file');
    expect(read?.output).toMatchObject({ untrusted: true, server: 'fs', tool: 'read_text_file' });
    expect(read?.route).toMatchObject({ tier: 'mcp', reason: 'named in plan' });
  });

  it('a filesystem write outside the allowed folders comes back as a tool error in the trace', async () => {
    const allowed = tempDir('agent-desk-mcp-allowed-');
    const outside = path.join(tempDir('agent-desk-mcp-outside-'), 'escape.txt');
    const { harness, manager } = mcp.open({ policy: { rules: { allow: ['mcp__fs__*'] } } });
    await manager.add('fs', stdioServer('filesystem', [allowed]));
    const task = await createPlaybookTask(
      harness.rt,
      `name: fs-escape\nsteps:\n  - tool: mcp__fs__write_file\n    args: { path: "${outside}", content: nope }\n`,
    );
    const done = await harness.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(/mcp__fs__write_file returned an error: .*(denied|outside)/i);
    const failed = (await harness.rt.trace.page(task.id, 0, 200)).events.find((e) => e.type === 'step.failed');
    expect(String((failed?.data as { error?: string }).error)).toMatch(/access denied|outside allowed/i);
  });

  it('server-memory over stdio: an entity created in one step is read back in the next', async () => {
    const memoryFile = path.join(tempDir('agent-desk-mcp-memory-'), 'memory.jsonl');
    const { harness, manager } = mcp.open({ policy: { rules: { allow: ['mcp__memory__*'] } } });
    const status = await manager.add('memory', stdioServer('memory', [], { env: { MEMORY_FILE_PATH: memoryFile } }));
    expect(status.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__memory__create_entities', 'mcp__memory__read_graph']));
    const task = await createPlaybookTask(
      harness.rt,
      `name: memory
steps:
  - tool: mcp__memory__create_entities
    args: { entities: [{ name: Ada, entityType: person, observations: [wrote the first program] }] }
  - tool: mcp__memory__search_nodes
    args: { query: Ada }
    expect: [{ path: $.text, contains: first program }]
`,
    );
    const done = await harness.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
  });

  it('server-everything over Streamable HTTP: tools listed and called, resources and prompts listed, bad arguments refused', async () => {
    const server = await mcp.everythingHttp();
    const { harness, manager } = mcp.open();
    const status = await manager.add('everything', httpServer(server.url));
    expect(status.state, status.reason).toBe('connected');
    expect(status.tools.find((t) => t.name === 'mcp__everything__echo')?.risk).toBe('read');

    const probe = await manager.test('everything');
    expect(probe.resources.length).toBeGreaterThan(0);
    expect(probe.prompts.length).toBeGreaterThan(0);

    const task = await createPlaybookTask(
      harness.rt,
      `name: everything
steps:
  - tool: mcp__everything__echo
    args: { message: over http }
    expect: [{ path: $.text, contains: over http }]
  - tool: mcp__everything__get-sum
    args: { a: 2, b: 40 }
    expect: [{ path: $.text, contains: "42" }]
`,
    );
    const done = await harness.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');

    // The server's JSON Schema is checked before anything is sent: a bad playbook names every problem.
    await expect(
      createPlaybookTask(mcp.harness.rt, `name: bad\nsteps:\n  - tool: mcp__everything__get-sum\n    args: { a: two }\n`),
    ).rejects.toThrow(/steps\[0\]\.args\.a: expected number[\s\S]*steps\[0\]\.args\.b: required/);
  });

  it('a server that cannot start is reported with the reason and its tools are not offered', async () => {
    const { harness, manager } = mcp.open();
    const status = await manager.add('broken', {
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'console.error("boom: no config"); process.exit(3)'],
      env: {},
      timeoutMs: 5000,
      capabilities: {},
      enabled: true,
    });
    expect(status.state).toBe('failed');
    expect(status.reason).toMatch(/boom: no config|closed/);
  });
});
