import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SkillNameSchema, type SkillSummary } from '../../contract/index.js';
import { checkWorkspacePath } from '../tools/builtin/workspacePath.js';
import { ToolError, type Tool, type ToolContext } from '../tools/types.js';
import type { SkillActivations } from './activations.js';
import { SKILLS_READ } from './allowedTools.js';
import { discoverSkills, MAX_SKILL_FILE_BYTES, skillRoots } from './discovery.js';
import { skillFilesOf } from './skillFiles.js';
import { parseSkillFile } from './skillFile.js';

/** Arguments of `skills.read`. */
export const SkillsReadInputSchema = z
  .object({
    name: SkillNameSchema.describe('The skill, as named in the list of skills.'),
    file: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('A file of the skill, relative to its folder (e.g. "references/guide.md"); omit it for the instructions.'),
  })
  .strict();
/** Validated `skills.read` arguments. */
export type SkillsReadArgs = z.infer<typeof SkillsReadInputSchema>;

/** A file of a skill is returned up to this many bytes. */
const MAX_FILE_BYTES = MAX_SKILL_FILE_BYTES;

/** What `skills.read` returns; `skill` and `allowedTools` are also the record the gate narrows by. */
export interface SkillsReadOutput {
  skill: string;
  source: SkillSummary['source'];
  file: string;
  content: string;
  truncated: boolean;
  /** The tool entries this skill allows while it is in use; null: it narrows nothing. */
  allowedTools: string[] | null;
  /** The skill's other files (with the instructions only), for reading on demand. */
  files?: string[];
}

/**
 * `skills.read`: a skill's instructions, or one file of its folder (confined to it: no
 * absolute path, no "..", no symlink out). Reading puts the skill in use for the task. It writes
 * nothing, but it is declared with side effects: it changes what the task may call, so the read
 * cache must not answer it and it never runs beside other calls of the same turn.
 */
export function skillsReadTool(options: { home: string; activations: SkillActivations }): Tool<SkillsReadArgs> {
  return {
    name: SKILLS_READ,
    title: 'Read a skill',
    description:
      'Loads a skill listed in the prompt: its instructions, or one file of its folder with "file". Reading a skill puts it in use; if it lists allowed tools, only those may be called from then on.',
    tier: 'api',
    capabilities: ['skills.read'],
    risk: 'read',
    readOnly: false,
    idempotent: true,
    input: SkillsReadInputSchema,
    classify: (args) => ({
      risks: ['read'],
      subject: `skill:${args.name}${args.file === undefined ? '' : `/${args.file}`}`,
      readOnly: false,
      idempotent: true,
      insideWorkspace: false,
      preview: { summary: args.file === undefined ? `Read skill ${args.name}` : `Read ${args.file} of skill ${args.name}` },
    }),
    availability: () => ({ available: true }),
    execute: async (args, ctx) => {
      const skill = findSkill(options.home, ctx.workspace, args.name);
      const output = args.file === undefined ? readInstructions(skill) : readSkillFile(skill, args.file);
      activate(options.activations, ctx, output);
      return output;
    },
  };
}

function findSkill(home: string, workspace: string, name: string): SkillSummary {
  const { skills, problems } = discoverSkills(skillRoots(home, workspace));
  const skill = skills.find((s) => s.name === name);
  if (skill) return skill;
  const broken = problems.find((p) => p.folder === name);
  if (broken) throw new ToolError(`skill "${name}" cannot be used: ${broken.problems.join('; ')}`, false, 'skill_invalid');
  const known = skills.length === 0 ? 'there are none' : `known: ${skills.map((s) => s.name).join(', ')}`;
  throw new ToolError(`no skill named "${name}" (${known})`, false, 'skill_not_found');
}

function readInstructions(skill: SkillSummary): SkillsReadOutput {
  const parsed = parseSkillFile(fs.readFileSync(path.join(skill.dir, 'SKILL.md'), 'utf8'), skill.name);
  if (!parsed.ok)
    throw new ToolError(`skill "${skill.name}" changed and no longer parses: ${parsed.problems.join('; ')}`, false, 'skill_invalid');
  return {
    skill: skill.name,
    source: skill.source,
    file: 'SKILL.md',
    content: parsed.body,
    truncated: false,
    allowedTools: parsed.allowedTools ?? null,
    files: skillFilesOf(skill.dir),
  };
}

function readSkillFile(skill: SkillSummary, file: string): SkillsReadOutput {
  const target = confinedPath(skill, file);
  const stat = fs.statSync(target.absolute, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new ToolError(`skill "${skill.name}" has no file "${target.relative}"`, false, 'not_found');
  const fd = fs.openSync(target.absolute, 'r');
  try {
    const head = Buffer.alloc(Math.min(stat.size, MAX_FILE_BYTES));
    fs.readSync(fd, head, 0, head.length, 0);
    return {
      skill: skill.name,
      source: skill.source,
      file: target.relative,
      content: head.toString('utf8'),
      truncated: stat.size > head.length,
      allowedTools: skill.allowedTools ?? null,
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** A path inside the skill's folder, refused when absolute, when it has a ".." part, or when a symlink leads out. */
function confinedPath(skill: SkillSummary, file: string): { absolute: string; relative: string } {
  const refuse = (why: string) => new ToolError(`file "${file}" of skill "${skill.name}" ${why}`, false, 'path_outside_skill');
  if (path.isAbsolute(file) || /^[A-Za-z]:/.test(file)) throw refuse('is absolute; give a path relative to the skill folder');
  if (file.split(/[\\/]/).includes('..')) throw refuse('contains ".."; give a path inside the skill folder');
  const check = checkWorkspacePath(skill.dir, file);
  if (!check.ok) throw refuse(`is refused: ${check.reason.replaceAll('task workspace', 'skill folder')}`);
  return { absolute: check.absolute, relative: check.relative };
}

function activate(activations: SkillActivations, ctx: ToolContext, output: SkillsReadOutput): void {
  activations.activate(ctx.taskId, {
    skill: output.skill,
    stepId: ctx.stepId,
    ...(output.allowedTools && { allowedTools: output.allowedTools }),
  });
}
