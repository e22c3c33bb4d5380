import { describe, expect, it } from 'vitest';
import { AgentDeskError } from '../../../../../electron/runtime/errors.js';
import { PLANNER_STATE_VERSION, parsePlannerState } from '../../../../../electron/runtime/planning/llm/plannerState.js';

const header = { queue: [{ index: 0, tool: 'fs.write', args: { path: 'a' } }], inboxSeq: 0 };
const turns = [
  { role: 'user', text: 'hi', eventSeq: 1 },
  { role: 'assistant', text: '', calls: [{ id: 'c1', name: 'fs_write', argumentsText: '{"path":"a"}', tool: 'fs.write', index: 0 }] },
];

function thrown(fn: () => unknown): AgentDeskError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AgentDeskError) return error;
    throw error;
  }
  throw new Error('expected an AgentDeskError');
}

describe('planner state records', () => {
  it('reads the current version into one record', () => {
    expect(parsePlannerState({ version: PLANNER_STATE_VERSION, header, turns }, 'tsk_1')).toEqual({
      version: PLANNER_STATE_VERSION,
      ...header,
      messages: turns,
    });
  });

  it('refuses a newer version with a typed error naming both versions and what to do', () => {
    const error = thrown(() => parsePlannerState({ version: PLANNER_STATE_VERSION + 1, header, turns }, 'tsk_1'));
    expect(error.code).toBe('unavailable');
    expect(error.message).toContain(`version ${PLANNER_STATE_VERSION + 1}`);
    expect(error.message).toContain('resume it with the Agent Desk that ran it');
    expect(error.details).toEqual({ taskId: 'tsk_1', version: PLANNER_STATE_VERSION + 1, supported: PLANNER_STATE_VERSION });
  });

  it('reports a damaged record by the path of each problem, never a stack trace', () => {
    const damaged = [{ role: 'assistant', text: 'x', calls: [{ id: 'c1', name: 'fs_write', tool: 'fs.write', index: -1 }] }];
    const error = thrown(() =>
      parsePlannerState({ version: PLANNER_STATE_VERSION, header: { queue: 'no', inboxSeq: 0 }, turns: damaged }, 'tsk_2'),
    );
    expect(error.code).toBe('internal');
    expect(error.message).toContain('the planner state of task tsk_2 is damaged');
    const paths = (error.details as { issues: { path: string }[] }).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['queue', 'messages[0].calls[0].argumentsText', 'messages[0].calls[0].index']));
  });
});
