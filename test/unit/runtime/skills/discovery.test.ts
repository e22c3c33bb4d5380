import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSkills, MAX_SKILL_FILE_BYTES, skillRoots } from '../../../../electron/runtime/skills/discovery.js';
import { tempDir } from '../../../support/runtime.js';
import { workspaceSkills, writeSkill } from '../../../support/skillFolders.js';
import { rmSync } from 'node:fs';

const made: string[] = [];
const fresh = (): string => {
  const dir = tempDir('agent-desk-skills-');
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('discoverSkills', () => {
  it('finds workspace and user skills, sorted by name; the user folder wins on a shared name and says so', () => {
    const home = fresh();
    const ws = fresh();
    writeSkill(workspaceSkills(ws), 'zeta', { name: 'zeta', description: 'Z.' }, 'z');
    writeSkill(workspaceSkills(ws), 'shared', { name: 'shared', description: 'From the workspace.', 'allowed-tools': 'fs.read' }, 'w');
    writeSkill(path.join(home, 'skills'), 'shared', { name: 'shared', description: 'From the user.' }, 'u');
    const { skills, problems } = discoverSkills(skillRoots(home, ws));
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.source, s.description])).toEqual([
      ['shared', 'user', 'From the user.'],
      ['zeta', 'workspace', 'Z.'],
    ]);
    expect(skills[0]!.notes).toEqual([`shadows the workspace skill of the same name at ${path.join(workspaceSkills(ws), 'shared')}`]);
    expect(skills[0]!.allowedTools).toBeUndefined();
  });

  it('names each folder it cannot use, and still lists the others', () => {
    const home = fresh();
    const ws = fresh();
    const root = workspaceSkills(ws);
    writeSkill(root, 'good', { name: 'good', description: 'Fine.' }, 'ok');
    writeSkill(root, 'bad-name', { name: 'Bad_Name', description: 'x' }, 'x');
    mkdirSync(path.join(root, 'empty'), { recursive: true });
    mkdirSync(path.join(root, 'huge'));
    writeFileSync(path.join(root, 'huge', 'SKILL.md'), `---\nname: huge\ndescription: d\n---\n${'x'.repeat(MAX_SKILL_FILE_BYTES)}`);
    writeFileSync(path.join(root, 'README.md'), 'not a skill');
    mkdirSync(path.join(root, '.hidden'));
    const { skills, problems } = discoverSkills(skillRoots(home, ws));
    expect(skills.map((s) => s.name)).toEqual(['good']);
    expect(problems.map((p) => [p.folder, p.source, p.problems[0]])).toEqual([
      ['bad-name', 'workspace', expect.stringMatching(/^name: lowercase letters/)],
      ['empty', 'workspace', 'the folder has no SKILL.md'],
      ['huge', 'workspace', expect.stringMatching(/^SKILL\.md is \d+ bytes; at most 262144 are read$/)],
    ]);
    expect(problems[0]!.path).toBe(path.join(root, 'bad-name', 'SKILL.md'));
  });

  it('refuses a workspace skill folder that is a symlink out of the workspace', () => {
    const home = fresh();
    const ws = fresh();
    const outside = fresh();
    writeSkill(outside, 'elsewhere', { name: 'elsewhere', description: 'Outside.' }, 'x');
    mkdirSync(workspaceSkills(ws), { recursive: true });
    symlinkSync(path.join(outside, 'elsewhere'), path.join(workspaceSkills(ws), 'elsewhere'));
    const { skills, problems } = discoverSkills(skillRoots(home, ws));
    expect(skills).toEqual([]);
    expect(problems[0]!.problems[0]).toMatch(/goes through a symlink to .*, outside the task workspace/);
  });

  it('refuses a workspace whose .agents/skills folder itself links out of it', () => {
    const home = fresh();
    const ws = fresh();
    const outside = fresh();
    writeSkill(outside, 'linked', { name: 'linked', description: 'Outside.' }, 'x');
    mkdirSync(path.join(ws, '.agents'));
    symlinkSync(outside, workspaceSkills(ws));
    const { skills, problems } = discoverSkills(skillRoots(home, ws));
    expect(skills).toEqual([]);
    expect(problems.map((p) => p.folder)).toEqual(['linked']);
  });

  it('follows a symlink in the user folder: the user put it there', () => {
    const home = fresh();
    const dotfiles = fresh();
    writeSkill(dotfiles, 'mine', { name: 'mine', description: 'Linked by the user.' }, 'x');
    mkdirSync(path.join(home, 'skills'));
    symlinkSync(path.join(dotfiles, 'mine'), path.join(home, 'skills', 'mine'));
    expect(discoverSkills(skillRoots(home)).skills.map((s) => s.name)).toEqual(['mine']);
  });

  it('has nothing to say when neither folder exists', () => {
    expect(discoverSkills(skillRoots(fresh(), fresh()))).toEqual({ skills: [], problems: [] });
  });
});
