import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PlaybookSchema } from '../../../../electron/contract/index.js';
import { discoverSkills, skillRoots } from '../../../../electron/runtime/skills/discovery.js';
import { skillFromRecording, writeRecordedSkill } from '../../../../electron/runtime/skills/recordSkill.js';
import { chatProvider, createGoalTask, openLlmRuntime } from '../../../support/llmRuntime.js';
import type { TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

async function recording() {
  h = openLlmRuntime(chatProvider('http://127.0.0.1:9/v1'));
  const task = await createGoalTask(h.rt, 'Write a greeting\ninto hello.txt');
  const raw = {
    name: task.title,
    goal: task.plan.kind === 'goal' ? task.plan.goal : '',
    steps: [
      { id: 'step1', tool: 'fs.list', args: { path: '.' } },
      { id: 'step2', tool: 'fs.write', args: { path: 'hello.txt', content: 'hi' }, expect: [{ path: '$.bytes', equals: 2 }] },
    ],
    acceptance: [{ type: 'file_exists', path: 'hello.txt', exists: true }],
  };
  return { task, recorded: { playbook: PlaybookSchema.parse(raw), yaml: stringify(raw) } };
}

describe('a recorded run as a skill', () => {
  it('writes SKILL.md (steps, checks, a pointer to the playbook) that discovery accepts, narrowed to the tools used', async () => {
    const { task, recorded } = await recording();
    const skillsDir = path.join(h.home, 'skills');
    const skill = skillFromRecording('greeting', task, recorded, skillsDir);
    writeRecordedSkill(skill);
    const [found] = discoverSkills(skillRoots(h.home)).skills;
    expect(found).toMatchObject({
      name: 'greeting',
      source: 'user',
      allowedTools: ['fs.list', 'fs.write'],
      metadata: { 'agent-desk-recorded-from': task.id },
    });
    expect(found!.description).toBe('Write a greeting into hello.txt Recorded from a run that succeeded; use it to do the same again.');
    const body = readFileSync(path.join(skillsDir, 'greeting', 'SKILL.md'), 'utf8');
    expect(body).toContain('1. `fs.list` with `{"path":"."}`');
    expect(body).toContain('2. `fs.write` with `{"path":"hello.txt","content":"hi"}`, expecting `[{"path":"$.bytes","equals":2}]`');
    expect(body).toContain('- `{"type":"file_exists","path":"hello.txt","exists":true}`');
    expect(body).toContain(`agent-desk run ${path.join(skillsDir, 'greeting', 'playbook.yaml')}`);
    expect(readFileSync(path.join(skillsDir, 'greeting', 'playbook.yaml'), 'utf8')).toBe(recorded.yaml);
  });

  it('refuses a name the format does not allow, and an existing folder unless forced', async () => {
    const { task, recorded } = await recording();
    const skillsDir = path.join(h.home, 'skills');
    expect(() => skillFromRecording('My Skill', task, recorded, skillsDir)).toThrow(/^skill name "My Skill": lowercase letters/);
    const skill = skillFromRecording('greeting', task, recorded, skillsDir);
    writeRecordedSkill(skill);
    expect(() => writeRecordedSkill(skill)).toThrow(/a skill folder already exists at .*greeting; pick another name, or pass --force/);
    expect(() => writeRecordedSkill(skill, true)).not.toThrow();
  });
});
