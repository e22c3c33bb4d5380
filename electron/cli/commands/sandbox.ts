import type { Command } from 'commander';
import { buildDesktopImage, sandboxSourceRoot } from '../../capabilities/sandbox/imageBuilder.js';
import type { MethodName, MethodResult, SandboxInfo } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { withRuntime } from '../openRuntime.js';
import { printJson, reportError, row } from '../output.js';

/** Runs a sandboxes.* method through the method table as the local admin (the CLI owns the data folder). */
function callSandboxes<M extends MethodName>(json: boolean | undefined, method: M, params: unknown, print: (r: MethodResult<M>) => void) {
  return withRuntime(json, async (rt) => {
    const response = await rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ['operator.admin'], clientId: 'cli' });
    if ('error' in response && response.error)
      throw new AgentDeskError(response.error.code, response.error.message, response.error.details);
    const result = (response as { result: MethodResult<M> }).result;
    if (json) printJson(result);
    else print(result);
  });
}

function printSandboxes(sandboxes: readonly SandboxInfo[]): void {
  if (sandboxes.length === 0) return console.log('no desktop sandboxes');
  const widths = [26, 10, 32, 8];
  console.log(row(['NAME', 'STATE', 'TASK', 'PID', 'CREATED'], widths));
  for (const s of sandboxes) console.log(row([s.name, s.state, s.task ?? '(warm pool)', String(s.pid), s.createdAt], widths));
}

/** `agent-desk sandbox build|list|destroy` (the bench subcommand is registered by registerSandboxBench). */
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
  sandbox
    .command('list')
    .alias('ls')
    .description("this data folder's desktop sandbox containers (orphans of a killed runtime are reaped first)")
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => callSandboxes(opts.json, 'sandboxes.list', {}, (r) => printSandboxes(r.sandboxes)));
  sandbox
    .command('destroy <id>')
    .description('remove a desktop sandbox container by id or name (its task then fails its next GUI step)')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      callSandboxes(opts.json, 'sandboxes.destroy', { id }, (r) => console.log(`destroyed ${r.destroyed}`)),
    );
}
