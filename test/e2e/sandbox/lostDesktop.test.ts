import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopModule } from '../../../electron/capabilities/gui/desktopModule.js';
import type { ComputerActionResult } from '../../../electron/contract/index.js';
import { ComputerToolInputSchema } from '../../../electron/contract/index.js';
import type { AnyTool, ToolContext } from '../../../electron/runtime/tools/types.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import type { TestRuntime } from '../../support/runtime.js';
import { desktopImage, openDesktopRuntime } from '../../support/sandboxImage.js';

// A desktop lost under an action of the real computer tool (its sandboxd killed, as an engine that
// stops takes it): lost before the action sent its input, nothing happened and the action runs on
// the task's next desktop; lost after, the effect is unknown, whichever call saw the loss.

const skip = missing('docker');

/** Kills the desktop's daemon: the container stays, every call on it fails. */
const killSandboxd = (containerId: string) => execFileSync('docker', ['exec', containerId, 'pkill', '-f', 'sandboxd/src/main.js']);

describe.skipIf(skip)('a desktop lost under a computer action', () => {
  let h: TestRuntime;
  let parts: DesktopModule;
  let computer: AnyTool;
  const ctx = (workspace: string): ToolContext => ({
    taskId: workspace.split('/').pop()!,
    stepId: 's',
    idempotencyKey: 'k',
    workspace,
    signal: new AbortController().signal,
  });
  const act = async (workspace: string, args: unknown): Promise<ComputerActionResult> =>
    (await computer.execute(ComputerToolInputSchema.parse(args), ctx(workspace))) as ComputerActionResult;

  beforeAll(async () => {
    const opened = openDesktopRuntime(await desktopImage(), { liveFps: 0 });
    h = opened.h;
    parts = opened.parts;
    computer = h.rt.registry.get('computer')!;
  }, 600_000);

  afterAll(async () => {
    await h?.cleanup();
  });

  it('lost before the click was sent (only a read saw it go): the click runs on the next desktop', async () => {
    const workspace = '/tmp/agent-desk-lost-before';
    await act(workspace, { action: 'screenshot' });
    const lost = (await parts.desktops.forWorkspace(workspace, 'lost-before')).sandbox;
    killSandboxd(lost.id);
    // A right click on the bare desktop opens the window manager's menu: a click with an effect.
    const result = await act(workspace, { action: 'click', x: 20, y: 20, button: 'right' });
    expect(result.changed?.length).toBeGreaterThan(0);
    const next = (await parts.desktops.forWorkspace(workspace, 'lost-before')).sandbox;
    expect(next.id).not.toBe(lost.id);
    expect(lost.lost).toBe(true);
    expect(lost.inputsSent).toBe(0);
    expect(next.inputsSent).toBe(1);
  }, 180_000);

  it('lost after the click was sent (a read after it saw it go): the effect is unknown and nothing is sent again', async () => {
    const workspace = '/tmp/agent-desk-lost-after';
    await act(workspace, { action: 'screenshot' });
    const sandbox = (await parts.desktops.forWorkspace(workspace, 'lost-after')).sandbox;
    // A left click on the bare desktop changes nothing: the tool watches the screen for a late
    // effect for over a second after the click, and the desktop goes in that time.
    const clicked = act(workspace, { action: 'click', x: 20, y: 20 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const pointer = async () => {
      const p = await sandbox.call('mouse.position', {});
      return p.x === 20 && p.y === 20 ? true : undefined;
    };
    await pollUntil('the pointer at the click', pointer, { timeoutMs: 30_000, intervalMs: 10 });
    await new Promise((r) => setTimeout(r, 300));
    killSandboxd(sandbox.id);
    const error = await clicked;
    expect(error).toMatchObject({ code: 'desktop_lost', effectUnknown: true });
    expect(String((error as Error).message)).toMatch(/may or may not have happened/);
    // No second desktop was asked for, so nothing was clicked anywhere else.
    expect(parts.desktops.peek(workspace)?.sandbox.id ?? sandbox.id).toBe(sandbox.id);
    expect(sandbox.inputsSent).toBe(1);
  }, 180_000);
});
