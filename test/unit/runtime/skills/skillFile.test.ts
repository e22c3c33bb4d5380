import { describe, expect, it } from 'vitest';
import { parseSkillFile } from '../../../../electron/runtime/skills/skillFile.js';

const skill = (frontmatter: string, body = '# Body\nDo it.'): string => `---\n${frontmatter}\n---\n${body}\n`;
const problemsOf = (text: string, folder = 'my-skill'): string[] => {
  const parsed = parseSkillFile(text, folder);
  return parsed.ok ? [] : parsed.problems;
};

describe('parseSkillFile', () => {
  it('reads the frontmatter of the format and the Markdown body', () => {
    const parsed = parseSkillFile(
      skill(
        [
          'name: my-skill',
          'description: Does a thing. Use when asked for the thing.',
          'license: MIT',
          'compatibility: Needs network access',
          'metadata:',
          '  author: example',
          '  version: "1.0"',
        ].join('\n'),
      ),
      'my-skill',
    );
    expect(parsed).toEqual({
      ok: true,
      frontmatter: {
        name: 'my-skill',
        description: 'Does a thing. Use when asked for the thing.',
        license: 'MIT',
        compatibility: 'Needs network access',
        metadata: { author: 'example', version: '1.0' },
      },
      body: '# Body\nDo it.',
      notes: [],
    });
  });

  it('takes allowed-tools as a space-delimited string (parentheses keep spaces) or as a list', () => {
    const spaced = parseSkillFile(
      skill('name: my-skill\ndescription: d\nallowed-tools: fs.read  fs.write(reports/a b.md) http.*'),
      'my-skill',
    );
    expect(spaced.ok && spaced.allowedTools).toEqual(['fs.read', 'fs.write(reports/a b.md)', 'http.*']);
    const listed = parseSkillFile(skill('name: my-skill\ndescription: d\nallowed-tools:\n  - fs.read\n  - fs.list'), 'my-skill');
    expect(listed.ok && listed.allowedTools).toEqual(['fs.read', 'fs.list']);
    const none = parseSkillFile(skill('name: my-skill\ndescription: d'), 'my-skill');
    expect(none.ok && none.allowedTools).toBeUndefined();
  });

  it('keeps keys outside the format as a note, not an error (other products add their own)', () => {
    const parsed = parseSkillFile(skill('name: my-skill\ndescription: d\nargument-hint: "[file]"'), 'my-skill');
    expect(parsed.ok && parsed.notes).toEqual(['frontmatter keys outside the Agent Skills format are ignored: argument-hint']);
  });

  it("notes allowed-tools written in another product's tool names, which match nothing here", () => {
    const parsed = parseSkillFile(skill('name: my-skill\ndescription: d\nallowed-tools: Read Bash(git:*) fs.list'), 'my-skill');
    expect(parsed.ok && parsed.notes).toEqual([
      'allowed-tools names no Agent Desk tool (they are lowercase, e.g. fs.read): Read, Bash(git:*); while the skill is in use they allow nothing',
    ]);
  });

  it.each([
    ['no frontmatter', '# Just markdown\n', 'SKILL.md must start with YAML frontmatter'],
    ['an unclosed frontmatter', '---\nname: my-skill\ndescription: d\n', 'the frontmatter is never closed'],
    ['invalid YAML', skill('name: [my-skill\ndescription: d'), 'frontmatter is not valid YAML'],
    ['no description', skill('name: my-skill'), 'description: required'],
    ['an empty description', skill('name: my-skill\ndescription: "  "'), 'description: must not be empty'],
    ['a description over 1024', skill(`name: my-skill\ndescription: ${'x'.repeat(1025)}`), 'description: must be at most 1024 characters'],
    [
      'a compatibility over 500',
      skill(`name: my-skill\ndescription: d\ncompatibility: ${'x'.repeat(501)}`),
      'compatibility: must be at most 500',
    ],
    ['metadata that is not strings', skill('name: my-skill\ndescription: d\nmetadata:\n  n: 1'), 'metadata.n:'],
    ['a name not like its folder', skill('name: other-skill\ndescription: d'), 'name: "other-skill" must match its folder name "my-skill"'],
    [
      'a bad allowed-tools entry',
      skill('name: my-skill\ndescription: d\nallowed-tools: fs.read fs.write(oops'),
      'allowed-tools: "fs.write(oops": unbalanced',
    ],
  ])('refuses %s with a line that says what is wrong', (_case, text, expected) => {
    const problems = problemsOf(text);
    expect(problems.join('\n')).toContain(expected);
  });

  it.each([['PDF-Processing'], ['-pdf'], ['pdf-'], ['pdf--processing'], ['a'.repeat(65)], ['pdf_processing']])(
    'refuses the name %s',
    (name) => {
      expect(problemsOf(skill(`name: ${name}\ndescription: d`), name)[0]).toMatch(/^name: /);
    },
  );
});

describe('the SKILL.md example in docs/skills.md', () => {
  it('parses as documented', async () => {
    const { readFileSync } = await import('node:fs');
    const docs = readFileSync(new URL('../../../../docs/skills.md', import.meta.url), 'utf8');
    const example = /```markdown\n([\s\S]*?)```/.exec(docs)![1]!;
    const parsed = parseSkillFile(example, 'release-notes');
    expect(parsed.ok && parsed.allowedTools).toEqual(['fs.read', 'fs.list', 'fs.write(NOTES.md)']);
  });
});
