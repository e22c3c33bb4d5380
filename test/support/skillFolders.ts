import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `<root>/<name>/SKILL.md` with the given frontmatter lines and body; returns the skill folder. */
export function writeSkill(root: string, name: string, frontmatter: Record<string, string>, body: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const yaml = Object.entries(frontmatter)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n');
  writeFileSync(path.join(dir, 'SKILL.md'), `---\n${yaml}\n---\n${body}\n`);
  return dir;
}

/** A workspace's skills folder (`.agents/skills`). */
export const workspaceSkills = (workspace: string): string => path.join(workspace, '.agents', 'skills');
