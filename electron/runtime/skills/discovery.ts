import fs from 'node:fs';
import path from 'node:path';
import type { SkillList, SkillProblem, SkillSource, SkillSummary } from '../../contract/index.js';
import { checkWorkspacePath } from '../tools/builtin/workspacePath.js';
import { parseSkillFile } from './skillFile.js';

/** A folder whose subfolders are skills. */
export interface SkillRoot {
  source: SkillSource;
  dir: string;
  /** A workspace root's workspace: its skills stay physically inside it (no symlink out). */
  workspace?: string;
}

/** A SKILL.md larger than this is refused: its body goes into a model request whole. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

/** Where the workspace keeps its skills. */
export const WORKSPACE_SKILLS_DIR = path.join('.agents', 'skills');

/**
 * The folders searched, in precedence order: the user's own (`$AGENT_DESK_HOME/skills`) first,
 * then the workspace's `.agents/skills`. A workspace comes from wherever the project came from,
 * so it cannot replace a skill the user installed under the same name.
 */
export function skillRoots(home: string, workspace?: string): SkillRoot[] {
  const roots: SkillRoot[] = [{ source: 'user', dir: path.join(home, 'skills') }];
  if (workspace !== undefined) {
    const resolved = path.resolve(workspace);
    roots.push({ source: 'workspace', dir: path.join(resolved, WORKSPACE_SKILLS_DIR), workspace: resolved });
  }
  return roots;
}

/**
 * Finds every skill under the roots. A folder that cannot be used is a named problem and never
 * hides the others; nothing here throws for what is on disk.
 */
export function discoverSkills(roots: readonly SkillRoot[]): SkillList {
  const skills = new Map<string, SkillSummary>();
  const problems: SkillProblem[] = [];
  for (const root of roots) {
    for (const found of skillsIn(root)) {
      if ('problems' in found) {
        problems.push(found);
        continue;
      }
      const winner = skills.get(found.name);
      if (winner) winner.notes.push(`shadows the ${found.source} skill of the same name at ${found.dir}`);
      else skills.set(found.name, found);
    }
  }
  const sorted = [...skills.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills: sorted, problems };
}

/** The skills of one root, each usable or a problem; a missing root has none. */
function skillsIn(root: SkillRoot): (SkillSummary | SkillProblem)[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root.dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    return [
      {
        folder: path.basename(root.dir),
        source: root.source,
        path: root.dir,
        problems: [`cannot read the skills folder (${code ?? String(error)})`],
      },
    ];
  }
  return entries
    .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const found = loadSkill(root, entry.name);
      return found === undefined ? [] : [found];
    });
}

/** One skill folder; undefined for a symlink that is not to a folder (not a skill). */
function loadSkill(root: SkillRoot, folder: string): SkillSummary | SkillProblem | undefined {
  const dir = path.join(root.dir, folder);
  const file = path.join(dir, 'SKILL.md');
  const problem = (...problems: string[]): SkillProblem => ({ folder, source: root.source, path: file, problems });
  // A workspace skill stays physically inside the workspace; the user's own folder may link elsewhere.
  if (root.workspace !== undefined) {
    const inside = checkWorkspacePath(root.workspace, path.relative(root.workspace, file));
    if (!inside.ok) return problem(inside.reason);
  }
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return undefined;
  const fileStat = fs.statSync(file, { throwIfNoEntry: false });
  if (!fileStat?.isFile()) return problem('the folder has no SKILL.md');
  if (fileStat.size > MAX_SKILL_FILE_BYTES) return problem(`SKILL.md is ${fileStat.size} bytes; at most ${MAX_SKILL_FILE_BYTES} are read`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return problem(`cannot read SKILL.md (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const parsed = parseSkillFile(text, folder);
  if (!parsed.ok) return problem(...parsed.problems);
  const { frontmatter } = parsed;
  return {
    name: frontmatter.name,
    description: frontmatter.description,
    source: root.source,
    dir,
    ...(parsed.allowedTools && { allowedTools: parsed.allowedTools }),
    ...(frontmatter.license !== undefined && { license: frontmatter.license }),
    ...(frontmatter.compatibility !== undefined && { compatibility: frontmatter.compatibility }),
    ...(frontmatter.metadata !== undefined && { metadata: frontmatter.metadata }),
    notes: parsed.notes,
  };
}
