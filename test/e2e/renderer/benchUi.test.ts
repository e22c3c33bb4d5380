import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';

const skip = missing('chromium');
let cli: CliSandbox | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
});

describe.skipIf(skip)(`agent-desk bench ui${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('prints the gzip bundle size, page load → first task list, goal → first step card and approval → dialog as JSON', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['bench', 'ui', '--runs', '1', '--json'], { timeoutMs: 120_000 });
    expect(result.code, explain(result)).toBe(0);
    expect(result.json()).toMatchObject({
      runs: 1,
      bundle: { total: { bytes: expect.any(Number), gzipBytes: expect.any(Number) }, js: { gzipBytes: expect.any(Number) } },
      ms: {
        pageLoadToTaskList: expect.any(Number),
        goalSubmittedToFirstStepCard: expect.any(Number),
        approvalRequestedToDialog: expect.any(Number),
      },
    });
  });
});
