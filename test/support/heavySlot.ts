import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * Files that fill both cores by themselves (desktops, a Chromium per case, second Docker engines)
 * call `useHeavySlot()` at their top: at most one of them runs at a time, machine-wide, while light
 * files run beside it. Two at once took longer than one after the other and timed out under each
 * other (docs/benchmarks.md, "The suite"). The sequencer (timedSequencer.ts) finds this call in
 * a file's text to plan the order.
 */

const LOCK = path.join(os.tmpdir(), 'agent-desk-test-heavy.lock');
/** A heavy file waits for the one before it: as long as the longest of them may take. */
const WAIT_MS = 30 * 60_000;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the slot (a lock file naming this process; a dead holder's is taken over) and returns its release. */
export async function takeHeavySlot(lock = LOCK): Promise<() => void> {
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lock, 'utf8').trim() || '0');
    if (holder && !alive(holder)) rmSync(lock, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Holds the heavy slot from before this file's first hook to after its last. */
export function useHeavySlot(): void {
  let release: (() => void) | undefined;
  beforeAll(async () => {
    release = await takeHeavySlot();
  }, WAIT_MS);
  afterAll(() => release?.());
}
