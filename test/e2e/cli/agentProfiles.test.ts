import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';

let sandbox: CliSandbox;
afterEach(async () => sandbox?.cleanup());

describe('agent-desk agents create --policy-profile', () => {
  it('accepts a profile config.json defines and refuses an unknown one with exit 2 and a typed error', async () => {
    sandbox = new CliSandbox();
    writeFileSync(
      path.join(sandbox.home, 'config.json'),
      JSON.stringify({ policy: { profiles: { ops: { allow: ['fs.delete(logs/**)'] } } } }),
    );
    const ok = await sandbox.run(['agents', 'create', 'ops-bot', '--tools', 'fs.*', '--policy-profile', 'ops', '--json']);
    expect(ok.code, explain(ok)).toBe(0);
    expect(ok.json()).toMatchObject({ name: 'ops-bot', tools: ['fs.*'], policyProfile: 'ops' });

    const bad = await sandbox.run(['agents', 'create', 'other', '--policy-profile', 'opz', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({
      error: { code: 'invalid_params', message: expect.stringContaining('unknown policy profile "opz"') },
    });
  }, 120_000);
});
