import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpServerConfigSchema } from '../../../../electron/contract/index.js';
import { REPO_ROOT } from '../../../support/cliSandbox.js';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask, waitForState } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';
import { stdioServer, useMcpRuntime } from './referenceServers.js';

const mcp = useMcpRuntime();

const longRun = (capability: string) => `name: long
steps:
  - tool: mcp__everything__trigger-long-running-operation
    capability: ${capability}
    args: { duration: 30, steps: 30 }
`;

/** Starts the task and kills the stdio server once the call is in flight. */
async function killServerMidCall(taskId: string): Promise<void> {
  const rt = mcp.harness.rt;
  const run = rt.engine.run(taskId);
  await pollUntil('the long-running MCP call to start', () =>
    (mcp.manager.connection('everything')?.inFlight ?? 0) > 0 ? true : undefined,
  );
  const pid = mcp.manager.connection('everything')?.pid;
  expect(pid).toBeTypeOf('number');
  process.kill(pid!, 'SIGKILL');
  await run;
}

describe('MCP server failures', () => {
  it('killing a server mid-task marks its tools unavailable and the step falls back to another tier', async () => {
    const fallback = testTool({
      name: 'browser.long_operation',
      tier: 'browser',
      capabilities: ['demo.long_operation'],
      risk: 'read',
      readOnly: true,
      idempotent: true,
      run: async () => ({ done: 'by the fallback' }),
    });
    const { harness, manager } = mcp.open();
    harness.rt.registry.register(fallback);
    await manager.add(
      'everything',
      stdioServer('everything', [], { capabilities: { 'trigger-long-running-operation': ['demo.long_operation'] } }),
    );
    // The fallback's schema differs, so it is named by capability with arguments both accept.
    const task = await createPlaybookTask(harness.rt, `name: long\nsteps:\n  - capability: demo.long_operation\n    args: {}\n`);
    // Long by default (10 s), so the kill lands mid-call.
    await killServerMidCall(task.id);
    const done = await harness.rt.engine.get(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const step = (await harness.rt.engine.steps(task.id)).find((s) => s.status === 'completed')!;
    expect(step.tool).toBe('browser.long_operation');
    expect(step.route?.attempts[0]).toMatchObject({ tool: 'mcp__everything__trigger-long-running-operation', outcome: 'retryable_error' });
    expect(step.route?.attempts[0]?.detail).toMatch(/went away|closed|failed/);

    const availability = harness.rt.registry.descriptors().find((d) => d.name === 'mcp__everything__echo')!.availability;
    expect(availability.available).toBe(false);
    expect(availability.reason).toMatch(/MCP server "everything" is failed/);
  });

  it('killing a server mid-task with no other tier fails the task cleanly with the reason', async () => {
    const { harness, manager } = mcp.open();
    await manager.add('everything', stdioServer('everything'));
    const task = await createPlaybookTask(harness.rt, longRun('mcp.everything.trigger-long-running-operation'));
    await killServerMidCall(task.id);
    const done = await waitForState(harness.rt, task.id, ['failed']);
    expect(done.stateReason).toMatch(/MCP server "everything" (went away|failed|cannot be reached)|is unavailable/);
  });

  it('a server that stops answering times out, is marked unavailable, and the next step is not stalled', async () => {
    const { harness, manager } = mcp.open();
    await manager.add('everything', stdioServer('everything', [], { timeoutMs: 500 }));
    // One progress notification only at the end (after 5 s): the 500 ms timeout fires first.
    const task = await createPlaybookTask(
      harness.rt,
      `name: hang\nsteps:\n  - tool: mcp__everything__trigger-long-running-operation\n    args: { duration: 5, steps: 1 }\n`,
    );
    const done = await harness.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(/did not answer trigger-long-running-operation within 500 ms/);
    const echo = harness.rt.registry.descriptors().find((d) => d.name === 'mcp__everything__echo')!;
    expect(echo.availability).toMatchObject({ available: false });

    // Another task naming the same server's tool is refused at routing, at once, with the reason.
    const next = await createPlaybookTask(harness.rt, `name: next\nsteps:\n  - tool: mcp__everything__echo\n    args: { message: hi }\n`);
    const refused = await harness.rt.engine.run(next.id);
    expect(refused.state).toBe('failed');
    expect(refused.stateReason).toMatch(/is unavailable \(MCP server "everything" is failed: did not answer/);
  });
});

/** A charge server (test/fixtures/mcp/chargeServer.mjs) that records each effect in its own file. */
function chargeServer(effects: string, answerAfterMs: number) {
  return McpServerConfigSchema.parse({
    transport: 'stdio',
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'test/fixtures/mcp/chargeServer.mjs'), effects, String(answerAfterMs)],
    capabilities: { charge: ['shop.charge'] },
  });
}

const effectsIn = (file: string): unknown[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

describe('exactly once when an MCP server dies mid-call', () => {
  it('a non-idempotent call whose server died after acting is uncertain and waits for the user; it never runs on the fallback server', async () => {
    const { harness, manager } = mcp.open({ policy: { rules: { allow: ['mcp__*'] } } });
    const first = path.join(harness.home, 'effects-first.jsonl');
    const second = path.join(harness.home, 'effects-second.jsonl');
    // Two servers offer the same capability; the first acts, then hangs until it is killed.
    await manager.add('shopA', chargeServer(first, 60_000));
    await manager.add('shopB', chargeServer(second, 0));
    const task = await createPlaybookTask(
      harness.rt,
      `name: pay\nsteps:\n  - capability: shop.charge\n    args: { order: o-1, cents: 500 }\n`,
    );
    const run = harness.rt.engine.run(task.id);
    await pollUntil('the first server to record the charge', () => (effectsIn(first).length > 0 ? true : undefined));
    process.kill(manager.connection('shopA')!.pid!, 'SIGKILL');
    const waiting = await run;

    expect(waiting.state).toBe('waiting_user');
    expect(waiting.stateReason).toMatch(
      /step 1 \(mcp__shopA__charge\) was interrupted and may or may not have taken effect .*choose rerun, skip or fail/,
    );
    const [step] = await harness.rt.engine.steps(task.id);
    expect(step).toMatchObject({ tool: 'mcp__shopA__charge', status: 'uncertain' });
    expect(step!.error).toMatch(/went away|failed during/);
    const uncertain = (await harness.rt.trace.page(task.id, 0, 100)).events.find((e) => e.type === 'step.uncertain');
    expect(uncertain?.data).toMatchObject({ tool: 'mcp__shopA__charge' });
    // Counted at the servers: one charge, on the first server only.
    expect(effectsIn(first)).toHaveLength(1);
    expect(effectsIn(second)).toHaveLength(0);

    // The user checked the shop: the charge went through, so the step is skipped — still one charge.
    const after = await harness.rt.engine.run(task.id, { resolution: 'skip' });
    expect(after.state, after.stateReason).toBe('succeeded');
    expect(effectsIn(first)).toHaveLength(1);
    expect(effectsIn(second)).toHaveLength(0);
  });

  it('a re-run the user chooses runs on the server that had the call, not on a fallback', async () => {
    const { harness, manager } = mcp.open({ policy: { rules: { allow: ['mcp__*'] } } });
    const first = path.join(harness.home, 'effects-first.jsonl');
    const second = path.join(harness.home, 'effects-second.jsonl');
    await manager.add('shopA', chargeServer(first, 60_000));
    await manager.add('shopB', chargeServer(second, 0));
    const task = await createPlaybookTask(
      harness.rt,
      `name: pay\nsteps:\n  - capability: shop.charge\n    args: { order: o-2, cents: 700 }\n`,
    );
    const run = harness.rt.engine.run(task.id);
    await pollUntil('the first server to record the charge', () => (effectsIn(first).length > 0 ? true : undefined));
    process.kill(manager.connection('shopA')!.pid!, 'SIGKILL');
    expect((await run).state).toBe('waiting_user');

    // shopA is down (no reconnects in this test): the re-run refuses to move the charge to shopB.
    const after = await harness.rt.engine.run(task.id, { resolution: 'rerun' });
    expect(after.state).toBe('failed');
    expect(after.stateReason).toMatch(/never runs on another tool/);
    expect(effectsIn(second)).toHaveLength(0);
  });
});
