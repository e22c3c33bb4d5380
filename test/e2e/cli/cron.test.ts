import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';

let sandbox: CliSandbox;
afterEach(async () => sandbox?.cleanup());

const PLAYBOOK = `name: nightly
steps:
  - { id: write, tool: fs.write, args: { path: out.txt, content: "ok\\n" } }
acceptance:
  - { type: file_exists, path: out.txt }
`;

describe('agent-desk cron', () => {
  it('adds a job, fires it by hand, runs its task and lists the run; bad input exits 2 with a typed error', async () => {
    sandbox = new CliSandbox();
    const file = path.join(sandbox.home, 'nightly.yaml');
    writeFileSync(file, PLAYBOOK);
    const add = await sandbox.run([
      'cron',
      'add',
      '--name',
      'nightly',
      '--schedule',
      '0 2 * * *',
      '--tz',
      'Europe/Berlin',
      '--playbook',
      file,
      '--json',
    ]);
    expect(add.code, explain(add)).toBe(0);
    const job = add.json<{ id: string; status: string; timezone: string }>();
    expect(job).toMatchObject({ status: 'active', timezone: 'Europe/Berlin' });

    const run = await sandbox.run(['cron', 'run', job.id, '--wait', '--json']);
    expect(run.code, explain(run)).toBe(0);
    expect(run.json()).toMatchObject({ trigger: 'manual', outcome: 'queued', taskState: 'succeeded' });

    const runs = await sandbox.run(['cron', 'runs', job.id, '--json']);
    expect(runs.json<{ runs: unknown[] }>().runs).toHaveLength(1);
    const list = await sandbox.run(['cron', 'list', '--json']);
    expect(list.json<{ jobs: { id: string }[] }>().jobs.map((j) => j.id)).toEqual([job.id]);

    const bad = await sandbox.run(['cron', 'add', '--name', 'x', '--schedule', 'sometimes', '--playbook', file, '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({ error: { code: 'invalid_params' } });
    expect((await sandbox.run(['cron', 'remove', job.id, '--json'])).json()).toEqual({ removed: true });
  }, 120_000);
});
