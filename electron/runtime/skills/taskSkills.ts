import type { Task } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { toWireName } from '../planning/llm/toolCatalog.js';
import { SKILLS_READ } from './allowedTools.js';
import { discoverSkills, skillRoots } from './discovery.js';
import { skillsPromptSection } from './skillsPrompt.js';

/**
 * The skills a goal task is offered (the user's and its workspace's), as its stable prefix lists
 * them; what was found, and every folder skipped with why, goes to the task's trace. A task
 * whose agent may not call `skills.read` is offered none.
 */
export async function offeredSkills(rt: Pick<RuntimeCore, 'home' | 'registry' | 'trace'>, task: Task): Promise<string | undefined> {
  if ((await rt.registry.filterFor(task))?.(SKILLS_READ) === false) return undefined;
  const { skills, problems } = discoverSkills(skillRoots(rt.home, task.workspace));
  if (skills.length > 0 || problems.length > 0) {
    await rt.trace.append(task.id, 'skills.loaded', {
      skills: skills.map((s) => ({ name: s.name, source: s.source, ...(s.allowedTools && { allowedTools: s.allowedTools }) })),
      problems,
    });
  }
  return skillsPromptSection(skills, toWireName(SKILLS_READ));
}
