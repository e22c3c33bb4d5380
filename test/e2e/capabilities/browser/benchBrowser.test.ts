import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../../support/cliSandbox.js';
import { missing } from '../../../support/requirements.js';

const skip = missing('chromium');
let cli: CliSandbox | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
});

describe.skipIf(skip)(`agent-desk bench browser${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('prints medians for launch, local navigation, click and screenshot as JSON', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['bench', 'browser', '--runs', '1', '--json'], { timeoutMs: 120_000 });
    expect(result.code, explain(result)).toBe(0);
    expect(result.json()).toMatchObject({
      runs: 1,
      ms: { launch: expect.any(Number), navigateLocal: expect.any(Number), click: expect.any(Number), screenshot: expect.any(Number) },
    });
  });

  it('without a Chromium the error says what to install', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['bench', 'browser', '--runs', '1', '--json'], { env: { AGENT_DESK_CHROMIUM: '/nonexistent/chrome' } });
    expect(result.code).not.toBe(0);
    expect(result.json()).toMatchObject({
      error: { code: 'unavailable', message: expect.stringContaining('AGENT_DESK_CHROMIUM is /nonexistent/chrome') },
    });
  });
});
