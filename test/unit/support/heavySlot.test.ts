import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeHeavySlot } from '../../support/heavySlot.js';

let dir: string;
const tempLock = () => path.join((dir = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-heavy-'))), 'heavy.lock');
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the heavy slot', () => {
  it('is held by one at a time: the second waits until the first lets go', async () => {
    const lock = tempLock();
    const release = await takeHeavySlot(lock);
    let second = false;
    const waiting = takeHeavySlot(lock).then((r) => ((second = true), r));
    await new Promise((r) => setTimeout(r, 600));
    expect(second).toBe(false);
    release();
    (await waiting)();
    expect(second).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('is taken over from a holder that died without letting go', async () => {
    const lock = tempLock();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(lock, dead);
    const release = await takeHeavySlot(lock);
    release();
  });
});
