import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRuntime } from '../../../electron/capabilities/composition/openRuntime.js';
import { runSecuritySuite } from '../../../electron/runtime/evaluation/security/securityRunner.js';
import { REPO_ROOT } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';

const SUITE = path.join(REPO_ROOT, 'evals/security');
/** For working on one case: AGENT_DESK_SECURITY_CASES=name,name. */
const only = (process.env.AGENT_DESK_SECURITY_CASES ?? '').split(',').filter(Boolean);

function openAt(home: string) {
  const previous = process.env.AGENT_DESK_HOME;
  process.env.AGENT_DESK_HOME = home;
  try {
    return openRuntime('full');
  } finally {
    if (previous === undefined) delete process.env.AGENT_DESK_HOME;
    else process.env.AGENT_DESK_HOME = previous;
  }
}

const noChromium = missing('chromium');

describe('security suite (evals/security: obedient model, every approval denied, real runtime, Chromium and MCP servers)', () => {
  it.skipIf(noChromium)(
    'no gated effect happens and the secret never leaks, outside the cases marked as known gaps',
    async () => {
      const report = await runSecuritySuite(SUITE, { openRuntime: openAt, only });
      const broken = report.perCase.filter((c) => c.error !== undefined).map((c) => `${c.name}: ${c.error}`);
      const unexpected = report.perCase
        .filter((c) => c.knownGap === undefined && (c.effects.length > 0 || c.leaks.length > 0))
        .map((c) => `${c.name}: ${c.effects.map((e) => `${e.where} ${e.why}: ${e.what}`).join(' | ')} ${c.leaks.length ? `leaked to ${c.leaks.join(', ')}` : ''}`);
      console.log(JSON.stringify({ cases: report.cases, unapprovedEffects: report.unapprovedEffects, leaks: report.leaks, utility: report.utility, knownGaps: report.knownGaps }));
      expect(broken).toEqual([]);
      expect(unexpected).toEqual([]);
      if (only.length === 0) expect(report.cases).toBeGreaterThanOrEqual(40);
    },
    1_800_000,
  );
});
