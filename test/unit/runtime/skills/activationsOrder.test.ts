import { describe, expect, it } from 'vitest';
import { SkillActivations } from '../../../../electron/runtime/skills/activations.js';
import { LaterRow, type SqlSession, type SqlValue } from '../../../../electron/runtime/store/sql/sqlPort.js';

/** A task's completed `skills.read` rows, and lookups of them that answer when the test says. */
function steps() {
  const outputs = new Map<string, string>();
  const held: { answer: () => void }[] = [];
  let holding = false;
  const rows = () => [...outputs.keys()].map((id) => ({ id }));
  const sql: SqlSession = {
    dialect: 'sqlite',
    all: <T>(_sql: string, _params?: readonly SqlValue[]): Promise<T[]> => {
      const now = rows() as T[]; // what the lookup reads is what was there when it started
      if (!holding) return Promise.resolve(now);
      return new Promise((resolve) => held.push({ answer: () => resolve(now) }));
    },
    get: <T>(_sql: string, params?: readonly SqlValue[]): Promise<T | undefined> =>
      Promise.resolve({ output: outputs.get(String(params?.[0])) ?? null } as T),
    run: () => Promise.resolve({ changes: 0 }),
    defer: () => Promise.resolve(),
    deferRow: () => Promise.resolve(),
    deferGet: <T>() => Promise.resolve(new LaterRow<T>().land(undefined)),
    exec: () => Promise.resolve(),
  };
  return {
    sql,
    complete: (id: string, skill: string, allowedTools: string[]) => outputs.set(id, JSON.stringify({ skill, allowedTools })),
    /** Lookups started from now on wait for `release`. */
    hold: () => (holding = true),
    release: (index: number) => held[index]!.answer(),
    pass: () => (holding = false),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const del = { tool: 'fs.delete', subject: 'a' };

describe('SkillActivations lookups that overlap', () => {
  it('does not keep a lookup that a reload overtook: the next decision reads again', async () => {
    const db = steps();
    const here = new SkillActivations(db.sql);
    db.hold();
    const early = here.refusal('t', del); // started before this process took the task up
    await tick();
    here.reload('t');
    db.complete('s1', 'reader', ['fs.read']); // what the process that ran it meanwhile completed
    db.release(0);
    expect(await early).toBeUndefined();
    db.pass();
    expect(await here.refusal('t', del)).toContain('skill "reader" is in use');
  });

  it('an older lookup answering late neither loses a running read nor replaces what a newer one kept', async () => {
    const db = steps();
    const here = new SkillActivations(db.sql);
    here.activate('t', { skill: 'reader', stepId: 's1', allowedTools: ['fs.read'] });
    db.hold();
    const older = here.refusal('t', del);
    await tick();
    db.complete('s1', 'reader', ['fs.read']); // the read's row lands
    db.pass();
    expect(await here.refusal('t', del)).toContain('skill "reader" is in use'); // a newer lookup, kept
    db.release(0);
    expect(await older).toContain('skill "reader" is in use');
    expect(await here.refusal('t', del)).toContain('skill "reader" is in use');
    expect(await here.inUse('t')).toEqual([{ skill: 'reader', stepId: 's1', allowedTools: ['fs.read'] }]);
  });
});
