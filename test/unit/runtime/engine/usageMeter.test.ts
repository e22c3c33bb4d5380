import { describe, expect, it } from 'vitest';
import type { Usage } from '../../../../electron/contract/index.js';
import { emptyUsage } from '../../../../electron/runtime/engine/budgets.js';
import { UsageMeter } from '../../../../electron/runtime/engine/usageMeter.js';
import { ManualClock } from '../../../support/runtime.js';

function meter(): { clock: ManualClock; meter: UsageMeter; written: Usage[] } {
  const clock = new ManualClock();
  const written: Usage[] = [];
  return { clock, meter: new UsageMeter(clock, (usage) => written.push(usage)), written };
}

describe("a run's usage meter", () => {
  it('wall time goes on from what earlier runs recorded and leaves out the waits for a person', () => {
    const { clock, meter: m } = meter();
    m.start({ ...emptyUsage(), wallMs: 1_000 }, 'running');
    clock.advance(200);
    m.trackHumanWait('waiting_approval');
    clock.advance(60_000); // the approval took a minute: not running time
    m.trackHumanWait('running');
    clock.advance(300);
    expect(m.now().wallMs).toBe(1_500);
  });

  it('a run that starts while the task waits for a person counts nothing until the wait ends', () => {
    const { clock, meter: m } = meter();
    m.start(emptyUsage(), 'waiting_user');
    clock.advance(5_000);
    expect(m.now().wallMs).toBe(0);
    m.trackHumanWait('running');
    clock.advance(40);
    expect(m.now().wallMs).toBe(40);
  });

  it('counts steps and model spend at once, and writes the row at most every 250 ms', () => {
    const { clock, meter: m, written } = meter();
    m.start(emptyUsage(), 'running');
    m.countStep();
    m.addPlanner({ modelCalls: 1, tokensIn: 100, tokensOut: 20, costUsd: 0.01 });
    m.countStep();
    expect(m.now()).toMatchObject({ steps: 2, modelCalls: 1, tokensIn: 100, tokensOut: 20, costUsd: 0.01 });
    expect(written.map((u) => u.steps)).toEqual([1]);
    clock.advance(250);
    m.countStep();
    expect(written.map((u) => u.steps)).toEqual([1, 3]);
    expect(written[1]).toMatchObject({ modelCalls: 1, tokensIn: 100 });
  });
});
