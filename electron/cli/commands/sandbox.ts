import type { Command } from 'commander';
import { fleetEngines } from '../../capabilities/sandbox/fleet/engineClient.js';
import { shipImage } from '../../capabilities/sandbox/fleet/shipImage.js';
import { newDocker } from '../../capabilities/sandbox/dockerClient.js';
import { FileSecretStore } from '../../capabilities/secrets/fileSecretStore.js';
import { buildDesktopImage, sandboxSourceRoot } from '../../capabilities/sandbox/imageBuilder.js';
import { loadConfig, resolveHome } from '../../runtime/config.js';
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
  const widths = [26, 10, 10, 32, 8];
  console.log(row(['NAME', 'HOST', 'STATE', 'TASK', 'PID', 'CREATED'], widths));
  for (const s of sandboxes)
    console.log(row([s.name, s.host ?? 'local', s.state, s.task ?? '(warm pool)', String(s.pid), s.createdAt], widths));
}

/** An engine of this data folder's `sandbox.hosts`, by name (TLS material from its secret store). */
function hostNamed(name: string) {
  const home = resolveHome();
  const { sandbox } = loadConfig(home);
  const engines = fleetEngines(sandbox, new FileSecretStore(home));
  const engine = engines.find((e) => e.name === name);
  if (!engine)
    throw new AgentDeskError(
      'invalid_params',
      `no sandbox host "${name}" in config.json (sandbox.hosts names ${engines.map((e) => e.name).join(', ')})`,
    );
  return engine;
}

/** `agent-desk sandbox build|list|destroy` (the bench subcommand is registered by registerSandboxBench). */
export function registerSandbox(program: Command): void {
  const sandbox = program.command('sandbox').description('the disposable desktop: image and containers');
  sandbox
    .command('build')
    .description("build the desktop image (or reuse the one tagged with the sources' content hash)")
    .option('--base <image>', 'base image (default: debian:trixie-slim if present, else bootstrapped with debootstrap)')
    .option('--force', 'rebuild even when the content hash is already built')
    .option('--host <name>', 'also put the image on this engine of sandbox.hosts (streamed from the default engine)')
    .option('--json', 'print JSON')
    .action(async (opts: { base?: string; force?: boolean; host?: string; json?: boolean }) => {
      try {
        // The host is checked before a build that may take minutes.
        const target = opts.host === undefined ? undefined : hostNamed(opts.host);
        const outcome = await buildDesktopImage({ root: sandboxSourceRoot(), base: opts.base, force: opts.force, echo: !opts.json });
        const shipped = target && (await shipImage(newDocker(), target, outcome.image));
        if (opts.json) printJson({ ...outcome, ...(shipped && { host: shipped.host, shipped: shipped.shipped }) });
        else console.log(`${outcome.reused ? 'reused' : 'built'} ${outcome.image} (base ${outcome.base}, ${outcome.seconds} s)`);
        if (shipped && !opts.json) console.log(`${shipped.shipped ? 'loaded onto' : 'already on'} host ${shipped.host}`);
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
