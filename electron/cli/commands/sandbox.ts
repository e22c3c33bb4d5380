import type { Command } from 'commander';
import { buildDesktopImage, sandboxSourceRoot } from '../../capabilities/sandbox/imageBuilder.js';
import { printJson, reportError } from '../output.js';

/** `agent-desk sandbox build|ls|reap` (the bench subcommand is registered by registerSandboxBench). */
export function registerSandbox(program: Command): void {
  const sandbox = program.command('sandbox').description('the disposable desktop: image and containers');
  sandbox
    .command('build')
    .description("build the desktop image (or reuse the one tagged with the sources' content hash)")
    .option('--base <image>', 'base image (default: debian:trixie-slim if present, else bootstrapped with debootstrap)')
    .option('--force', 'rebuild even when the content hash is already built')
    .option('--json', 'print JSON')
    .action(async (opts: { base?: string; force?: boolean; json?: boolean }) => {
      try {
        const outcome = await buildDesktopImage({ root: sandboxSourceRoot(), base: opts.base, force: opts.force, echo: !opts.json });
        if (opts.json) printJson(outcome);
        else console.log(`${outcome.reused ? 'reused' : 'built'} ${outcome.image} (base ${outcome.base}, ${outcome.seconds} s)`);
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
