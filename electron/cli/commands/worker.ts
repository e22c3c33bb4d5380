import type { Command } from 'commander';
import { connectConfiguredMcpServers } from '../../capabilities/mcp/mcpModule.js';
import { openRuntime } from '../openRuntime.js';
import { EXIT, reportError } from '../output.js';
import { untilStopSignal } from '../stopSignal.js';

/**
 * `agent-desk worker`: runs tasks and fires cron jobs for every gateway on the same store, with no
 * gateway of its own. Several may run at once: each claims queue entries and task runs in the store,
 * so one task runs in one place; one that dies leaves its tasks to the next (recovered at start).
 */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run queued tasks and cron jobs for the gateways on this store (`serve --no-worker`); several may run at once')
    .option('--concurrency <n>', 'tasks at once in this worker (default: scheduler.concurrency in config.json)')
    .action(async (opts: { concurrency?: string }) => {
      const concurrency = opts.concurrency === undefined ? undefined : Number(opts.concurrency);
      if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)) {
        process.stderr.write(`agent-desk: --concurrency must be a whole number from 1 to 64, not "${opts.concurrency}"\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      // It hears decisions made on any gateway through the store, and stops on a signal itself.
      const rt = await openRuntime('full', {
        warmSandboxes: true,
        watchStore: true,
        processOwnsSignals: true,
        ...(concurrency !== undefined && { scheduler: { concurrency } }),
      });
      try {
        await connectConfiguredMcpServers(rt.mcp?.manager);
        const recovered = await rt.engine.recover();
        rt.scheduler.start();
        console.log(`Agent Desk worker ${process.pid} on ${rt.home}: running queued tasks and cron jobs (Ctrl-C stops it)`);
        if (recovered.length) console.log(`Resumed ${recovered.length} interrupted task(s): ${recovered.join(', ')}`);
        await untilStopSignal();
        // Runs in flight stay resumable: another worker (or this one, restarted) recovers them.
        await rt.stop();
        process.exit(0);
      } catch (error) {
        process.exitCode = reportError(error, false);
        await rt.lease.close();
        await rt.store.close();
      }
    });
}
