import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saveHealed } from '../../../../electron/cli/commands/runRecord.js';
import { createPlaybookTask, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

// `agent-desk run <file>` offers every succeeded playbook run to saveHealed: only a recording (a
// playbook naming a healing model) can have been healed; any other playbook is left as it is.

const PLAIN = `
name: plain
steps:
  - { id: say, tool: echo, args: { value: hi } }
`;

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('saveHealed after `run <file>`', () => {
  it('leaves a playbook that is not a recording alone, without an error', async () => {
    h = openTestRuntime();
    const file = path.join(h.home, 'plain.yaml');
    writeFileSync(file, PLAIN);
    const task = await h.rt.engine.run((await createPlaybookTask(h.rt, PLAIN)).id);
    expect(task.state).toBe('succeeded');
    await expect(saveHealed(h.rt, task, file)).resolves.toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(PLAIN);
  });
});
