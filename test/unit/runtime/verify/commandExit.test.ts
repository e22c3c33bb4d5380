import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandExitVerifier } from '../../../../electron/runtime/verify/commandExit.js';
import { check, tempWorkspace } from './checkFixtures.js';

const node = process.execPath;

describe('command_exit', () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>;
  beforeAll(async () => {
    ws = await tempWorkspace();
    await mkdir(path.join(ws.dir, 'sub'));
  });
  afterAll(() => ws.dispose());

  it('passes on the expected exit code and runs in the workspace by default', async () => {
    const result = await commandExitVerifier.run(
      check({ type: 'command_exit', command: [node, '-e', 'console.log(process.cwd())'] }),
      ws.ctx,
    );
    expect(result.passed).toBe(true);
    expect(result.output).toBe(`exit code 0\n${ws.dir}\n`);
  });

  it('fails showing the exit code and the output, stderr included', async () => {
    const result = await commandExitVerifier.run(
      check({ type: 'command_exit', command: [node, '-e', 'console.error("boom"); process.exit(3)'] }),
      ws.ctx,
    );
    expect(result).toMatchObject({ passed: false, output: 'exit code 3 (expected exit code 0)\nboom\n' });
  });

  it('passes a non-zero expected code and resolves cwd against the workspace', async () => {
    const result = await commandExitVerifier.run(
      check({ type: 'command_exit', command: [node, '-e', 'console.log(process.cwd()); process.exit(3)'], cwd: 'sub', exitCode: 3 }),
      ws.ctx,
    );
    expect(result).toMatchObject({ passed: true, output: `exit code 3\n${path.join(ws.dir, 'sub')}\n` });
  });

  it('keeps only the tail of long output', async () => {
    const result = await commandExitVerifier.run(
      check({ type: 'command_exit', command: [node, '-e', 'process.stdout.write("a".repeat(10000) + "END")'] }),
      ws.ctx,
    );
    const tail = result.output.split('\n')[1] ?? '';
    expect(tail.length).toBe(2000);
    expect(tail.endsWith('aEND')).toBe(true);
    expect(tail.startsWith('…')).toBe(true);
  });

  it('kills a command that outlives its timeout', async () => {
    const result = await commandExitVerifier.run(
      check({ type: 'command_exit', command: [node, '-e', 'setTimeout(() => {}, 60000)'], timeoutMs: 500 }),
      ws.ctx,
    );
    expect(result).toMatchObject({ passed: false, output: 'timed out after 500 ms and was killed (expected exit code 0)' });
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('kills the whole process group, so a child holding the output pipe cannot stall the check', async () => {
    const script = `require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'inherit' }); setTimeout(() => {}, 60000)`;
    const started = Date.now();
    const result = await commandExitVerifier.run(check({ type: 'command_exit', command: [node, '-e', script], timeoutMs: 500 }), ws.ctx);
    expect(result.passed).toBe(false);
    expect(result.output).toContain('timed out after 500 ms');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops when the task is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await commandExitVerifier.run(check({ type: 'command_exit', command: [node, '-e', 'setTimeout(() => {}, 60000)'] }), {
      workspace: ws.dir,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ passed: false, output: 'cancelled and killed (expected exit code 0)' });
  });

  it('fails without throwing when the command or the cwd does not exist', async () => {
    const missing = await commandExitVerifier.run(check({ type: 'command_exit', command: ['no-such-command-xyz'] }), ws.ctx);
    expect(missing).toMatchObject({ passed: false, output: expect.stringContaining('cannot start "no-such-command-xyz"') });
    const noCwd = await commandExitVerifier.run(check({ type: 'command_exit', command: [node, '-e', ''], cwd: 'nope' }), ws.ctx);
    expect(noCwd).toMatchObject({ passed: false, output: expect.stringContaining('not found:') });
  });
});
