import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Task } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import { recordTask } from '../../runtime/planning/record/recordTask.js';

/**
 * `run --record <out.yaml>`: saves the run as a replayable playbook when it succeeded. Notes go
 * to stderr so `--json` output stays one JSON document.
 */
export async function saveRecording(rt: RuntimeCore, task: Task, file: string): Promise<void> {
  if (task.state !== 'succeeded') {
    process.stderr.write(`not recorded: task ${task.id} is ${task.state}\n`);
    return;
  }
  const { playbook, yaml } = await recordTask(rt, task.id);
  const target = path.resolve(file);
  writeFileSync(target, yaml);
  const healing = playbook.heal ? `, healing with ${playbook.heal.model}` : ', no healing model';
  process.stderr.write(`recorded ${playbook.steps.length} steps to ${target}${healing}\n`);
}
