import { groundingDesktops } from '../../capabilities/gui/groundingDesktop.js';
import { sandboxOwnerOf } from '../../capabilities/gui/desktopModule.js';
import { loadConfig, resolveHome } from '../../runtime/config.js';
import { loadGroundingSuite } from '../../runtime/evaluation/grounding/loadGroundingSuite.js';
import { runGroundingSuite } from '../../runtime/evaluation/grounding/groundingRunner.js';
import type { GroundingReport } from '../../runtime/evaluation/grounding/groundingReport.js';
import { EXIT, printJson } from '../output.js';
import { benchMachine } from './benchRuntime.js';

/**
 * The grounding suite: every scene's targets resolved by the product's resolver on real desktops
 * (one per screen size, the image config.json or AGENT_DESK_SANDBOX_IMAGE names, else the sources'
 * tag), each case scored; exits non-zero when any case is not as expected.
 */
export async function runGrounding(dir: string, json: boolean): Promise<void> {
  const loaded = loadGroundingSuite(dir);
  const home = resolveHome();
  const image = loadConfig(home).sandbox.image ?? process.env.AGENT_DESK_SANDBOX_IMAGE;
  const desktops = await groundingDesktops({ owner: sandboxOwnerOf(home), ...(image && { image }) });
  const report = await runGroundingSuite(loaded, desktops);
  if (json) printJson({ ...report, machine: benchMachine() });
  else printGrounding(report);
  process.exitCode = report.failed === 0 ? EXIT.ok : EXIT.failed;
}

function printGrounding(report: GroundingReport): void {
  for (const c of report.perCase) {
    const got = c.actual.outcome === 'found' ? `found by ${c.actual.resolver}` : c.actual.outcome;
    const mark = c.pass ? 'ok  ' : c.knownGap !== undefined ? 'GAP ' : 'FAIL';
    console.log(`${mark} ${c.scene}/${c.target} ${c.screen} ${c.theme}: ${got} · ${c.ms} ms${c.why ? ` · ${c.why}` : ''}`);
  }
  const by = (r: Record<string, { cases: number; passed: number }>) =>
    Object.entries(r)
      .map(([k, t]) => `${k} ${t.passed}/${t.cases}`)
      .join(', ');
  console.log(`by resolver: ${by(report.totals.byResolver)} · by outcome: ${by(report.totals.byOutcome)}`);
  const gaps = report.knownGaps.failing.length;
  console.log(`${report.passed}/${report.cases} as expected${gaps ? ` · ${gaps} known gaps` : ''} · ${report.wallSeconds} s`);
}
