import path from 'node:path';
import type { Command } from 'commander';
import type { SkillList } from '../../contract/index.js';
import { resolveHome } from '../../runtime/config.js';
import { discoverSkills, skillRoots } from '../../runtime/skills/discovery.js';
import { EXIT, printJson, reportError, row } from '../output.js';

/** `agent-desk skills list`: the skills a task in a workspace is offered, and the folders skipped with why. */
export function registerSkills(program: Command): void {
  const skills = program.command('skills').description('Agent Skills (SKILL.md folders) offered to goal tasks');
  skills
    .command('list')
    .description('list the skills of $AGENT_DESK_HOME/skills and <workspace>/.agents/skills (the user folder wins on a shared name)')
    .option('--workspace <dir>', 'the task workspace whose .agents/skills to read', '.')
    .option('--json', 'print JSON')
    .action((opts: { workspace: string; json?: boolean }) => {
      try {
        const list = discoverSkills(skillRoots(resolveHome(), path.resolve(opts.workspace)));
        if (opts.json) printJson(list);
        else printList(list);
        process.exitCode = EXIT.ok;
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}

function printList({ skills, problems }: SkillList): void {
  if (skills.length === 0 && problems.length === 0) {
    console.log('no skills: add <workspace>/.agents/skills/<name>/SKILL.md or $AGENT_DESK_HOME/skills/<name>/SKILL.md');
  }
  for (const skill of skills) {
    const allowed = skill.allowedTools ? `allowed-tools: ${skill.allowedTools.join(' ')}` : 'allowed-tools: (any)';
    console.log(row([skill.name, skill.source, skill.description], [24, 10, 0]));
    console.log(`  ${skill.dir}  ${allowed}`);
    for (const note of skill.notes) console.log(`  note: ${note}`);
  }
  // Warnings go to stderr: the list itself stays usable in a pipe.
  for (const problem of problems) {
    for (const line of problem.problems) {
      process.stderr.write(`warning: skill "${problem.folder}" (${problem.source}, ${problem.path}) skipped: ${line}\n`);
    }
  }
}
