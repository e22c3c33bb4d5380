import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { resolveHome } from '../../runtime/config.js';
import { recordTask } from '../../runtime/planning/record/recordTask.js';
import { skillRoots } from '../../runtime/skills/discovery.js';
import { skillFromRecording, writeRecordedSkill } from '../../runtime/skills/recordSkill.js';
import { withControlRuntime } from '../openRuntime.js';
import { printJson } from '../output.js';

interface RecordFlags {
  skill?: string;
  workspace?: string;
  force?: boolean;
  out?: string;
  model?: string;
  json?: boolean;
}

/**
 * `agent-desk tasks record <taskId>`: a succeeded goal task as a playbook (stdout or `--out`),
 * or with `--skill <name>` as a skill folder holding SKILL.md and that playbook.
 */
export function registerTasksRecord(tasks: Command): void {
  tasks
    .command('record <taskId>')
    .description('save a succeeded goal task as a playbook, or with --skill as an Agent Skill')
    .option('--skill <name>', 'write a skill folder <name>/ (SKILL.md + playbook.yaml) into $AGENT_DESK_HOME/skills')
    .option('--workspace <dir>', 'with --skill: write into <dir>/.agents/skills instead')
    .option('--force', 'with --skill: replace an existing skill folder')
    .option('--out <file>', 'write the playbook YAML to this file')
    .option('--model <ref>', 'the model that heals a failing step on replay (default: the one the task ran with)')
    .option('--json', 'print JSON')
    .action((taskId: string, flags: RecordFlags) =>
      withControlRuntime(flags.json, async (rt) => {
        const recorded = await recordTask(rt, taskId, flags.model === undefined ? {} : { model: flags.model });
        if (flags.out !== undefined) writeFileSync(path.resolve(flags.out), recorded.yaml);
        if (flags.skill === undefined) {
          if (flags.json) return printJson(recorded);
          if (flags.out === undefined) process.stdout.write(recorded.yaml);
          else console.log(`recorded ${recorded.playbook.steps.length} steps to ${path.resolve(flags.out)}`);
          return;
        }
        const skill = skillFromRecording(flags.skill, await rt.engine.get(taskId), recorded, skillsFolder(flags.workspace));
        writeRecordedSkill(skill, flags.force);
        if (flags.json) return printJson({ ...recorded, skill: { name: skill.name, dir: skill.dir, files: Object.keys(skill.files) } });
        console.log(`recorded ${recorded.playbook.steps.length} steps as skill "${skill.name}" in ${skill.dir}`);
      }),
    );
}

/** Where `--skill` writes: the user's skills folder, or a workspace's `.agents/skills`. */
function skillsFolder(workspace: string | undefined): string {
  const roots = skillRoots(resolveHome(), workspace);
  return (workspace === undefined ? roots[0] : roots[1])!.dir;
}
