import { describe, expect, it, vi } from 'vitest';
import type { Task } from '../../../../../electron/contract/index.js';
import * as parse from '../../../../../electron/runtime/planning/playbook/parse.js';
import { playbookPlanFactory } from '../../../../../electron/runtime/planning/playbook/taskPlan.js';
import { echoTool } from '../../../../../electron/runtime/tools/builtin/echo.js';
import { ToolRegistry } from '../../../../../electron/runtime/tools/registry.js';

vi.mock('../../../../../electron/runtime/planning/playbook/parse.js', async (original) => {
  const real = await original<typeof parse>();
  return { ...real, parsePlaybook: vi.fn(real.parsePlaybook) };
});

const SOURCE = `name: echo twice
steps:
  - id: first
    tool: echo
    args: { value: one }
  - tool: echo
    args: { value: two }
`;

const taskOf = (id: string, source = SOURCE): Task =>
  ({
    id,
    title: `task ${id}`,
    state: 'running',
    plan: { kind: 'playbook', source, baseDir: '/pb' },
    inputs: {},
    workspace: `/ws/${id}`,
  }) as unknown as Task;

describe('the plans of playbook tasks', () => {
  it('a queue of one playbook parses its text once, and each run gets a copy of its own', async () => {
    const registry = new ToolRegistry();
    registry.register(echoTool);
    const plans = playbookPlanFactory(registry);
    vi.mocked(parse.parsePlaybook).mockClear();
    const a = (await plans(taskOf('a'))).playbook!;
    const b = (await plans(taskOf('b'))).playbook!;
    expect(parse.parsePlaybook).toHaveBeenCalledTimes(1);
    expect(b).toEqual(a);
    a.steps[0]!.args = { value: 'changed by run a' };
    expect((await plans(taskOf('c'))).playbook!.steps[0]!.args).toEqual({ value: 'one' });
  });

  it('a tool removed since the text was parsed is checked again: the playbook is refused, not run from memory', async () => {
    const registry = new ToolRegistry();
    registry.register(echoTool);
    const plans = playbookPlanFactory(registry);
    await plans(taskOf('a'));
    registry.unregister('echo');
    await expect(async () => plans(taskOf('b'))).rejects.toMatchObject({ code: 'invalid_playbook' });
  });

  it('a text that does not parse is refused each time, with its task named', async () => {
    const plans = playbookPlanFactory(new ToolRegistry());
    for (const id of ['x', 'y'])
      await expect(async () => plans(taskOf(id, 'name: [broken'))).rejects.toMatchObject({
        code: 'invalid_playbook',
        message: expect.stringContaining(`task ${id}`),
      });
  });
});
