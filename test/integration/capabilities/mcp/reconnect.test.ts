import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask } from '../../../support/runtime.js';
import { httpServer, useMcpRuntime } from './referenceServers.js';

const mcp = useMcpRuntime();

/** A runtime whose MCP manager reconnects quickly (the backoff doubles from 100 ms). */
async function everythingOverHttp(): Promise<{ port: number; kill(): Promise<void> }> {
  const server = await mcp.everythingHttp();
  const { manager } = mcp.open({}, { reconnectDelaysMs: [100, 200, 400, 800] });
  const status = await manager.add('everything', httpServer(server.url));
  expect(status.state, status.reason).toBe('connected');
  const kill = async () => {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGKILL');
    await exited;
  };
  return { port: server.port, kill };
}

const echo = `name: echo\nsteps:\n  - tool: mcp__everything__echo\n    args: { message: hi }\n`;

describe('MCP reconnect with backoff (server-everything over Streamable HTTP)', () => {
  it('a dead server is reconnected with backoff: its tools are unavailable meanwhile and available again once it is back', async () => {
    const { port, kill } = await everythingOverHttp();
    const rt = mcp.harness.rt;
    await kill();

    // The next call finds the server gone: it fails with the reason, and the tools go unavailable.
    const failed = await rt.engine.run((await createPlaybookTask(rt, echo)).id);
    expect(failed.state).toBe('failed');
    expect(failed.stateReason).toMatch(/MCP server "everything"/);
    const tool = rt.registry.get('mcp__everything__echo')!;
    expect(tool.availability()).toMatchObject({ available: false, reason: expect.stringContaining('MCP server "everything" is failed') });
    // Reconnect attempts keep failing while the server is down (the tools stay unavailable).
    await pollUntil('two reconnect attempts to fail', () =>
      (mcp.manager.connection('everything')?.reconnectAttempts ?? 0) >= 3 ? true : undefined,
    );
    expect(tool.availability().available).toBe(false);

    await mcp.everythingHttp(port);
    await pollUntil(
      'the server to be reconnected',
      () => (mcp.manager.connection('everything')?.state === 'connected' ? true : undefined),
      {
        timeoutMs: 20_000,
      },
    );
    expect(rt.registry.get('mcp__everything__echo')!.availability()).toEqual({ available: true });
    const again = await rt.engine.run((await createPlaybookTask(rt, echo)).id);
    expect(again.state, again.stateReason).toBe('succeeded');
  });

  it('a server killed mid-call fails the call with a clear reason in the trace, and its tools become unavailable', async () => {
    const { kill } = await everythingOverHttp();
    const rt = mcp.harness.rt;
    const task = await createPlaybookTask(
      rt,
      `name: long\nsteps:\n  - tool: mcp__everything__trigger-long-running-operation\n    args: { duration: 30, steps: 30 }\n`,
    );
    const run = rt.engine.run(task.id);
    await pollUntil('the call to report progress', async () =>
      (await rt.trace.page(task.id, 0, 500)).events.some((e) => e.type === 'tool.progress') ? true : undefined,
    );
    await kill();
    const done = await run;
    expect(done.state).toBe('failed');
    const failure = (await rt.trace.page(task.id, 0, 500)).events.find((e) => e.type === 'step.failed');
    expect(failure?.data).toMatchObject({
      error: expect.stringMatching(/MCP server "everything" went away during trigger-long-running-operation: the server stopped answering/),
    });
    expect(rt.registry.get('mcp__everything__echo')!.availability().available).toBe(false);
  });
});
