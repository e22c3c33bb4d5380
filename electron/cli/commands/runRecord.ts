import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Task } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import { healable, recordTask } from '../../runtime/planning/record/recordTask.js';

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

/**
 * `run <recorded.yaml>`: a replay that succeeded after the model healed a step writes the healed
 * playbook back to its file (the text it replaced kept as `<file>.bak`), so the next replay runs
 * with no model. Returns the healed positions (0-based; none: the file is left alone).
 */
export async function saveHealed(rt: RuntimeCore, task: Task, file: string): Promise<number[]> {
  // Only a recording (a playbook naming a healing model) can have been healed; any other playbook is left alone.
  if (task.state !== 'succeeded' || !healable(task)) return [];
  const { yaml, healed = [] } = await recordTask(rt, task.id);
  if (healed.length === 0) return [];
  const target = path.resolve(file);
  copyFileSync(target, `${target}.bak`);
  writeFileSync(target, yaml);
  const steps = healed.map((p) => p + 1).join(', ');
  process.stderr.write(`healed step${healed.length > 1 ? 's' : ''} ${steps} saved to ${target} (the previous text in ${target}.bak)\n`);
  return healed;
}
