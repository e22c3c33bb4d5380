import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** External parts some tests need. */
export type Requirement = 'docker' | 'chromium' | 'xvfb';

const required = new Set(
  (process.env.AGENT_DESK_REQUIRE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

function probe(what: Requirement): string | undefined {
  try {
    if (what === 'docker') execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'pipe', timeout: 10_000 });
    if (what === 'chromium' && !existsSync(process.env.AGENT_DESK_CHROMIUM ?? '/usr/bin/chromium'))
      return 'no Chromium at /usr/bin/chromium (apt-get install chromium)';
    if (what === 'xvfb') execFileSync('which', ['Xvfb'], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `${what} is not available here (${(error as Error).message.split('\n')[0]})`;
  }
}

/**
 * Whether a test needing `what` should skip, and why. When AGENT_DESK_REQUIRE names it (CI),
 * a missing part throws instead, so CI can never pass by skipping.
 */
export function missing(what: Requirement): string | undefined {
  const reason = probe(what);
  if (reason && required.has(what)) throw new Error(`AGENT_DESK_REQUIRE includes ${what}, but ${reason}`);
  return reason;
}
