import type { Command } from 'commander';
import { runEvalSuite } from '../../runtime/evaluation/evalRunner.js';
import { EXIT, printJson, reportError } from '../output.js';

/** `agent-desk eval <suite-dir>`: runs an evaluation suite and reports completion, failures, tokens and cost. */
export function registerEval(program: Command): void {
  program
    .command('eval <suiteDir>')
    .description('run an evaluation suite (a folder of goal tasks with scripted or real models and acceptance checks)')
    .option('--json', 'print the report as JSON')
    .action(async (dir: string, opts: { json?: boolean }) => {
      try {
        const report = await runEvalSuite(dir);
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
