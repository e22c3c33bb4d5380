import type { Command } from 'commander';
import { openRuntime } from '../../capabilities/composition/openRuntime.js';
import { runEvalSuite } from '../../runtime/evaluation/evalRunner.js';
import { isGroundingSuite } from '../../runtime/evaluation/grounding/loadGroundingSuite.js';
import { isSecuritySuite } from '../../runtime/evaluation/security/loadSecuritySuite.js';
import { runSecuritySuite } from '../../runtime/evaluation/security/securityRunner.js';
import { securityHolds, type SecurityReport } from '../../runtime/evaluation/security/securityReport.js';
import { EXIT, printJson, reportError } from '../output.js';
import { runGrounding } from './evalGrounding.js';

/** `agent-desk eval <suite-dir>`: runs an evaluation suite and reports completion, failures, tokens and cost. */
export function registerEval(program: Command): void {
  program
    .command('eval <suiteDir>')
    .description(
      'run an evaluation suite (goal tasks with scripted or real models and acceptance checks; kind: security or grounding in suite.yaml)',
    )
    .option('--json', 'print the report as JSON')
    .option('--case <name...>', 'security suites: run only these cases')
    .option('--control', 'security suites: the harness self-check (approve everything, secret unknown): effects and leaks must show')
    .action(async (dir: string, opts: SecurityFlags) => {
      try {
        if (isSecuritySuite(dir)) return await runSecurity(dir, opts);
        if (isGroundingSuite(dir)) return await runGrounding(dir, Boolean(opts.json));
        const report = await runEvalSuite(dir, (home, model) => openRuntime('full', { home, model }));
        if (opts.json) printJson(report);
        else {
          for (const t of report.perTask) {
            const mark = t.passed ? 'ok  ' : 'FAIL';
            console.log(
              `${mark} ${t.name}: ${t.state}${t.failureType ? ` (${t.failureType})` : ''} · ${t.steps} steps · ${t.modelCalls} model calls · ${t.promptTokens} prompt tokens · $${t.costUsd.toFixed(6)}`,
            );
          }
          console.log(
            `${report.passed}/${report.tasks} as expected · completion rate ${report.completionRate} · $${report.totals.costUsd.toFixed(6)} in all`,
          );
        }
        process.exitCode = report.passed === report.tasks ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}

interface SecurityFlags {
  json?: boolean;
  case?: string[];
  control?: boolean;
}

/** The adversarial suite: each case in the product's own runtime over its own data folder. */
async function runSecurity(dir: string, opts: SecurityFlags): Promise<void> {
  const report = await runSecuritySuite(dir, {
    openRuntime: openRuntimeAt,
    ...(opts.case && { only: opts.case }),
    ...(opts.control && { control: true }),
  });
  if (opts.json) printJson(report);
  else printSecurity(report);
  // A control run is meant to show effects; only a broken case fails it.
  const held = opts.control ? report.unexpected.errors === 0 : securityHolds(report);
  process.exitCode = held ? EXIT.ok : EXIT.failed;
}

/** `openRuntime` reads its data folder from AGENT_DESK_HOME, as a fresh `agent-desk` process would. */
function openRuntimeAt(home: string) {
  const previous = process.env.AGENT_DESK_HOME;
  process.env.AGENT_DESK_HOME = home;
  try {
    return openRuntime('full');
  } finally {
    if (previous === undefined) delete process.env.AGENT_DESK_HOME;
    else process.env.AGENT_DESK_HOME = previous;
  }
}

function printSecurity(report: SecurityReport): void {
  for (const c of report.perCase) {
    const bad = c.effects.length > 0 || c.leaks.length > 0 || c.error !== undefined;
    const mark = !bad ? 'ok  ' : c.knownGap !== undefined ? 'GAP ' : 'FAIL';
    const detail = [
      c.effects.length > 0 && `${c.effects.length} effects (${c.effects.map((e) => e.why).join('; ')})`,
      c.leaks.length > 0 && `leaked to ${c.leaks.join(', ')}`,
      c.error !== undefined && `error: ${c.error}`,
    ].filter(Boolean);
    console.log(
      `${mark} ${c.name} [${c.vector}]: ${c.state} · utility ${c.utility ? 'yes' : 'no'}${detail.length ? ` · ${detail.join(' · ')}` : ''}`,
    );
  }
  console.log(`${report.cases} cases · ${report.unapprovedEffects} unapproved effects · ${report.leaks} leaks · utility ${report.utility}`);
}
