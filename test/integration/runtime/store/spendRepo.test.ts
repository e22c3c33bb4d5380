import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../../../electron/contract/index.js';
import { SpendRepo } from '../../../../electron/runtime/store/spendRepo.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';

// The ledger's exactly-once rules on both stores: a charge is the task's total less what it was
// charged before, inside the usage write's transaction.

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const ALICE: Actor = { subject: 'alice', name: 'Alice' };
const AT = '2026-12-03T10:00:00.000Z';

async function newTask(): Promise<string> {
  const task = await h.rt.engine.create({ title: 't', plan: { kind: 'goal', goal: 'g' }, inputs: {}, owner: ALICE });
  return task.id;
}

describe.each(STORE_KINDS)('spend ledger (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('the same total written again (a retried commit, a takeover) charges nothing more', async () => {
    h = await openStoreTestRuntime(kind);
    const id = await newTask();
    const charge = (usd: number, tokens: number) =>
      h.rt.store.transaction((tx) => new SpendRepo(tx.sql).charge(id, ALICE, { usd, tokens }, AT));
    await charge(0.25, 100);
    await charge(0.25, 100);
    await charge(0.75, 300);
    await charge(0.75, 300);
    const ledger = new SpendRepo(h.rt.store.sql);
    expect((await ledger.personDay('alice', '2026-12-03')).spent).toEqual({ usd: 0.75, tokens: 300 });
    expect(await ledger.task(id)).toEqual({ subject: 'alice', usd: 0.75, tokens: 300 });
  });

  it('a crash between the charge and the step (the transaction never commits) charges nothing; the retry charges once', async () => {
    h = await openStoreTestRuntime(kind);
    const id = await newTask();
    const crashed = h.rt.store.transaction(async (tx) => {
      await new SpendRepo(tx.sql).charge(id, ALICE, { usd: 0.5, tokens: 200 }, AT);
      throw new Error('killed before the step');
    });
    await expect(crashed).rejects.toThrow('killed before the step');
    const ledger = new SpendRepo(h.rt.store.sql);
    expect((await ledger.personDay('alice', '2026-12-03')).spent).toEqual({ usd: 0, tokens: 0 });
    await h.rt.store.transaction((tx) => new SpendRepo(tx.sql).charge(id, ALICE, { usd: 0.5, tokens: 200 }, AT));
    expect((await ledger.personDay('alice', '2026-12-03')).spent).toEqual({ usd: 0.5, tokens: 200 });
  });

  it('many tasks of one person charging at once: the day is their exact sum, and the team’s month too', async () => {
    h = await openStoreTestRuntime(kind);
    const ids = await Promise.all(Array.from({ length: 40 }, () => newTask()));
    await Promise.all(
      ids.map((id, n) =>
        h.rt.store.transaction((tx) => new SpendRepo(tx.sql).charge(id, ALICE, { usd: 0.001 * (n + 1), tokens: n + 1 }, AT)),
      ),
    );
    const ledger = new SpendRepo(h.rt.store.sql);
    const expected = { usd: (40 * 41 * 1000) / 2 / 1_000_000, tokens: (40 * 41) / 2 };
    expect((await ledger.personDay('alice', '2026-12-03')).spent).toEqual(expected);
    expect((await ledger.teamMonth('2026-12')).spent).toEqual(expected);
  });
});
