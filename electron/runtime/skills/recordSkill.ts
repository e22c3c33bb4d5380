import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { SkillNameSchema, type Playbook, type Task } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';
import type { RecordedPlaybook } from '../planning/record/recordPlaybook.js';
import { parseSkillFile } from './skillFile.js';

/** The playbook a recorded skill carries, next to its SKILL.md. */
export const SKILL_PLAYBOOK = 'playbook.yaml';

/** A skill folder to write: its SKILL.md and the replayable playbook. */
export interface RecordedSkill {
  name: string;
  dir: string;
  files: Record<string, string>;
}

/**
 * A recorded run as a skill: SKILL.md whose body walks through the steps that worked and the
 * checks that decided success, and `playbook.yaml` (the same recording) for a replay with no
 * model. Its `allowed-tools` are the tools the run used, so the skill in use lets a task call
 * nothing else.
 */
export function skillFromRecording(name: string, task: Task, recorded: RecordedPlaybook, skillsDir: string): RecordedSkill {
  const checked = SkillNameSchema.safeParse(name);
  if (!checked.success) throw new AgentDeskError('invalid_params', `skill name "${name}": ${checked.error.issues[0]!.message}`);
  const dir = path.join(path.resolve(skillsDir), name);
  const skillMd = skillMarkdown(name, task, recorded.playbook, dir);
  const parsed = parseSkillFile(skillMd, name);
  if (!parsed.ok) throw new AgentDeskError('internal', `the recorded SKILL.md does not parse: ${parsed.problems.join('; ')}`);
  return { name, dir, files: { 'SKILL.md': skillMd, [SKILL_PLAYBOOK]: recorded.yaml } };
}

/** Writes the folder; an existing one is replaced only with `force`. */
export function writeRecordedSkill(skill: RecordedSkill, force = false): void {
  if (fs.existsSync(skill.dir) && !force) {
    throw new AgentDeskError('conflict', `a skill folder already exists at ${skill.dir}; pick another name, or pass --force to replace it`);
  }
  fs.mkdirSync(skill.dir, { recursive: true });
  for (const [file, text] of Object.entries(skill.files)) fs.writeFileSync(path.join(skill.dir, file), text);
}

function skillMarkdown(name: string, task: Task, playbook: Playbook, dir: string): string {
  const goal = playbook.goal ?? task.title;
  const tools = [...new Set(playbook.steps.flatMap((s) => (s.tool === undefined ? [] : [s.tool])))].sort();
  const frontmatter = {
    name,
    description: clip(`${oneLine(goal)} Recorded from a run that succeeded; use it to do the same again.`, 1024),
    'allowed-tools': tools.join(' '),
    metadata: { 'agent-desk-recorded-from': task.id },
  };
  const steps = playbook.steps.map(
    (step, i) => `${i + 1}. \`${step.tool ?? step.capability}\` with \`${JSON.stringify(step.args)}\`${expectText(step.expect)}`,
  );
  const checks = playbook.acceptance.map((check) => `- \`${JSON.stringify(check)}\``);
  return [
    `---\n${stringify(frontmatter, { lineWidth: 0 })}---`,
    `# ${oneLine(task.title)}`,
    '',
    `Recorded from task ${task.id}, whose goal was:`,
    '',
    `> ${oneLine(goal)}`,
    '',
    '## Steps that worked',
    '',
    ...steps,
    '',
    '## How success was checked',
    '',
    ...(checks.length > 0 ? checks : ['- (no acceptance checks were recorded)']),
    '',
    '## Replay without a model',
    '',
    `The same steps as a playbook: [${SKILL_PLAYBOOK}](${SKILL_PLAYBOOK}). Replay it with \`agent-desk run ${path.join(dir, SKILL_PLAYBOOK)}\`; a model is called only to heal a step whose result differs.`,
    '',
  ].join('\n');
}

function expectText(expect: readonly unknown[]): string {
  return expect.length === 0 ? '' : `, expecting \`${JSON.stringify(expect)}\``;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
