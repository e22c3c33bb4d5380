import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Step } from '../../../../electron/contract/index.js';
import { CommitQueue } from '../../../../electron/runtime/engine/commitQueue.js';
import type { StepRecorder } from '../../../../electron/runtime/engine/stepRecorder.js';
import { StepWrites } from '../../../../electron/runtime/engine/stepWrites.js';
import { Store, type Repos } from '../../../../electron/runtime/store/store.js';
import { ManualClock, tempDir } from '../../../support/runtime.js';

let home: string;
let store: Store;
let reader: Database.Database;
let commits: number;
let writes: StepWrites;

/** A recorder as the task run builds it, over a CommitQueue: each write is a row, each commit numbered. */
function recorderOver(queue: CommitQueue): StepRecorder {
  let assembling = false;
  const note = (text: string) => (tx: Repos) => tx.sql.run('INSERT INTO notes (text, commitNo) VALUES (?, ?)', [text, commits + 1]);
  return {
    saveStep: async (step, extra, lazy = false) => {
      queue.queue(note(`${step.id} ${step.status}`));
      assembling = true;
      extra?.();
      assembling = false;
      await queue.settle(lazy);
      return step;
    },
    trace: (type, data, stepId) => {
      const write = note([type, stepId, data.tool].filter(Boolean).join(' '));
      if (assembling) queue.queue(write);
      else queue.writeDetached(write);
    },
    commit: (write, lazy = true) => (assembling ? (queue.queue(write), Promise.resolve()) : queue.write(write, lazy)),
  };
}

beforeEach(async () => {
  home = tempDir();
  const file = path.join(home, 'agent-desk.db');
  store = Store.open(file);
  await store.sql.exec('CREATE TABLE notes (text TEXT, commitNo INTEGER)');
  reader = new Database(file, { readonly: true }); // another connection sees only what was committed
  commits = 0;
  const queue = new CommitQueue(new ManualClock(), (fn) =>
    store.transaction(async (tx) => {
      await fn(tx);
      commits++;
    }),
  );
  writes = new StepWrites(recorderOver(queue));
});

afterEach(async () => {
  reader.close();
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

const step = (id: string, status: Step['status']) => ({ id, status }) as Step;
/** Committed rows as `commit: text`, in write order. */
const committed = () =>
  (reader.prepare('SELECT commitNo, text FROM notes ORDER BY rowid').all() as { commitNo: number; text: string }[]).map(
    (r) => `${r.commitNo}: ${r.text}`,
  );

describe("an executor's writes", () => {
  it("a read-only call's start is never written on its own: its completion takes it", async () => {
    writes.holdStart('stp_1', { tool: 'fs.read' });
    expect(writes.takeHeldStart()).toEqual({ tool: 'fs.read' });
    await writes.saveStep(step('stp_1', 'completed'), () => writes.trace('step.completed', { tool: 'fs.read' }, 'stp_1'), true);
    await writes.saveStep(step('stp_2', 'started'));
    expect(committed()).toEqual(['1: stp_1 completed', '1: step.completed stp_1 fs.read', '1: stp_2 started']);
  });

  it('a call that fails writes its held start first, in the same commit as the failure', async () => {
    writes.holdStart('stp_1', { tool: 'fs.read' });
    await writes.saveStep(step('stp_1', 'failed'), () => writes.trace('step.failed', { tool: 'fs.read' }, 'stp_1'));
    expect(committed()).toEqual(['1: stp_1 failed', '1: step.started stp_1 fs.read', '1: step.failed stp_1 fs.read']);
    expect(writes.takeHeldStart()).toBeUndefined();
  });

  it('what a call reports mid-way comes after its start, and the completion no longer carries the start', async () => {
    writes.holdStart('stp_1', { tool: 'web.fetch' });
    writes.writeHeldStarts();
    writes.trace('tool.progress', { tool: 'web.fetch' }, 'stp_1');
    await writes.commit(async () => undefined, false);
    expect(writes.takeHeldStart()).toBeUndefined();
    expect(committed()).toEqual(['1: step.started stp_1 web.fetch', '2: tool.progress stp_1 web.fetch']);
  });

  it('a fallback holds one start per tool tried; the completion takes the last', async () => {
    writes.holdStart('stp_1', { tool: 'web.fetch' });
    writes.holdStart('stp_1', { tool: 'browser.read' });
    expect(writes.takeHeldStart()).toEqual({ tool: 'browser.read' });
    await writes.saveStep(step('stp_1', 'completed'));
    expect(committed()).toEqual(['1: stp_1 completed']);
  });

  it('a lazy save writes the starts it carried, not those a later call holds', async () => {
    writes.holdStart('stp_1', { tool: 'fs.read' });
    await writes.saveStep(step('stp_1', 'denied'), undefined, true);
    writes.holdStart('stp_2', { tool: 'fs.list' });
    await writes.commit(async () => undefined, false);
    expect(committed()).toEqual(['1: stp_1 denied', '1: step.started stp_1 fs.read']);
    expect(writes.takeHeldStart()).toEqual({ tool: 'fs.list' });
  });
});
