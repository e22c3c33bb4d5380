import { describe, expect, it } from 'vitest';
import type { Step, Task } from '../../../../../electron/contract/index.js';
import { healedPlaybook } from '../../../../../electron/runtime/planning/record/healedPlaybook.js';

const SOURCE = `name: notes
goal: Save the note
heal: { model: "local:gpt-test" }
steps:
  - tool: computer
    args: { action: screenshot }
  - id: save
    title: Save it
    tool: computer
    args: { action: click, x: 10, y: 10, target: { role: push button, name: Save note }, recordedSpace: { width: 1280, height: 800 } }
  - tool: fs.read
    args: { path: "\${steps.save.output.action}" }
`;
const task = { id: 'tsk_1', state: 'succeeded', plan: { kind: 'playbook', source: SOURCE, baseDir: '/tmp' } } as unknown as Task;
const step = (index: number, status: Step['status'], extra: Partial<Step> = {}): Step =>
  ({ index, attempt: 1, status, tool: 'computer', args: { action: 'screenshot' }, readOnly: false, output: {}, ...extra }) as Step;
const click = (name: string) => ({
  args: { action: 'click', target: { role: 'button', name }, button: 'left', count: 1 },
  output: {
    action: 'click',
    cursor: { x: 30, y: 40 },
    screenshot: { width: 1366, height: 768 },
    target: { resolver: 'accessibility', box: { x: 1, y: 2, width: 3, height: 4 }, point: { x: 2, y: 4 }, role: 'push button', name },
  },
});

describe('a healed replay saved as a playbook', () => {
  it("the healed step is the last round's calls; the last keeps the step's id, others get <id>-heal<n>; untouched steps keep their text", () => {
    const steps = [
      step(0, 'completed'),
      step(1, 'failed', { error: 'target_missed' }),
      step(2, 'completed', { tool: 'fs.read', args: { path: 'click' }, readOnly: true }),
      // Round 1: a screenshot, then a click that failed.
      step(3, 'completed'),
      step(4, 'failed', { ...click('Nope') }),
      // Round 2: a screenshot, then the click that completed the step.
      step(5, 'completed'),
      step(6, 'completed', { planStepId: 'save', ...click('Save') }),
    ];
    const { playbook, healed, yaml } = healedPlaybook(task, steps);
    expect(healed).toEqual([1]);
    expect(playbook.steps.map((s) => [s.id, s.tool, s.args.action])).toEqual([
      [undefined, 'computer', 'screenshot'],
      ['save-heal1', 'computer', 'screenshot'],
      ['save', 'computer', 'click'],
      [undefined, 'fs.read', undefined],
    ]);
    expect(playbook.steps[2]).toMatchObject({
      title: 'Save it',
      args: { x: 30, y: 40, target: { role: 'push button', name: 'Save' }, recordedSpace: { width: 1366, height: 768 } },
    });
    expect(playbook.steps[3]!.args.path).toBe('${steps.save.output.action}'); // the reference kept as written
    expect(playbook.heal?.model).toBe('local:gpt-test');
    expect(yaml).toContain('name: Save');
  });

  it('a replay that healed nothing is the playbook as it was', () => {
    const { healed, playbook } = healedPlaybook(task, [step(0, 'completed'), step(1, 'completed'), step(2, 'completed')]);
    expect(healed).toEqual([]);
    expect(playbook.steps[1]).toMatchObject({ id: 'save', args: { target: { name: 'Save note' } } });
  });
});
