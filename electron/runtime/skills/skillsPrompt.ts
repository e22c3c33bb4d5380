import type { SkillSummary } from '../../contract/index.js';

/**
 * The skills' part of a task's stable prefix: names and descriptions only (the body is read on
 * demand), sorted by name, so it is byte-identical at every step of the task.
 */
export function skillsPromptSection(skills: readonly SkillSummary[], readTool: string): string | undefined {
  if (skills.length === 0) return undefined;
  const lines = [...skills]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ').trim()}`);
  return [
    `Skills hold instructions for particular kinds of work. Before work a skill's description matches, call ${readTool} with {"name": "<skill>"} to load its instructions; a file it mentions loads with {"name": "<skill>", "file": "<path>"}.`,
    'A skill that lists allowed tools limits what this task may call from the moment it is read until the task ends.',
    ...lines,
  ].join('\n');
}
