import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessServiceHost } from '../../../../electron/capabilities/services/processServices.js';
import type { PlaybookService } from '../../../../electron/contract/index.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const service = (command: string[]): PlaybookService => ({ name: 'api', command, readyPath: '/health', env: {}, readyTimeoutMs: 5000 });

async function failure(command: string[]): Promise<AgentDeskError> {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-'));
  writeFileSync(path.join(dir, 'crash.mjs'), "throw new Error('inventory database is locked');\n");
  const error = await new ProcessServiceHost().start([service(command)], { baseDir: dir, workspace: dir }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentDeskError);
  return error as AgentDeskError;
}

describe('a playbook service that cannot start', () => {
  it('a script that is not there is named with where it was looked for and what to do, before anything runs', async () => {
    const error = await failure(['node', '../services/inventory-api.mjs']);
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('../services/inventory-api.mjs is not at');
    expect(error.message).toContain('playbook.baseDir');
    expect(error.message).not.toMatch(/node:internal|\n\s+at /);
  });

  it('a script that crashes shows its message, not a Node stack trace', async () => {
    const error = await failure(['node', './crash.mjs']);
    expect(error.code).toBe('unavailable');
    expect(error.message).toContain('Error: inventory database is locked');
    expect(error.message).not.toMatch(/node:internal|\n\s+at |file:\/\//);
  });
});
