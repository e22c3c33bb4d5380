import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../../../../electron/capabilities/composition/openRuntime.js';
import { missing } from '../../../support/requirements.js';
import { tempDir, waitForState } from '../../../support/runtime.js';
import { fixturePlaybook } from '../../../support/cliSandbox.js';

const skip = missing('chromium');
let home = '';
afterEach(() => {
  delete process.env.AGENT_DESK_HOME;
  rmSync(home, { recursive: true, force: true });
});

// `serve` leaves with its runs in flight (they stay resumable), but the next process needs the
// waiting task's page: `stop()` must finish saving it. Before, SIGTERM right after the task began
// to wait closed the database and exited while the page was still being read from Chromium.
describe.skipIf(skip)(`a server stopping while a browser task waits${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('lands the waiting page on disk before it stops', async () => {
    home = tempDir('agent-desk-stop-');
    process.env.AGENT_DESK_HOME = home;
    const rt = await openRuntime('full');
    const file = fixturePlaybook('browser-order.yaml');
    const task = await rt.engine.create({
      title: 'order',
      plan: { kind: 'playbook', source: readFileSync(file, 'utf8'), baseDir: path.dirname(file) },
      inputs: {},
    });
    await rt.engine.start(task.id);
    const waiting = await waitForState(rt, task.id, ['waiting_approval', 'failed', 'succeeded']);
    expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
    await rt.stop(); // at once, as `serve` does on SIGTERM
    const pages = path.join(home, 'browser-pages');
    const saved = existsSync(pages) ? readdirSync(pages) : [];
    expect(saved).toHaveLength(1);
    expect(JSON.parse(readFileSync(path.join(pages, saved[0]!), 'utf8'))).toMatchObject({ url: expect.stringContaining('/checkout.html') });
  }, 60_000);
});
