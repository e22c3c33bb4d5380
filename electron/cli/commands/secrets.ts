import type { Command } from 'commander';
import { ALL_SCOPES, type MethodName } from '../../contract/index.js';
import type { RuntimeHandle } from '../../runtime/core/runtimeCore.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { withRuntime } from '../openRuntime.js';
import type { ProductRuntime } from '../../capabilities/composition/openRuntime.js';

/** Secrets live in the data folder, not the task store: these commands work before a PostgreSQL store's password is set. */
const withSecretsRuntime = (json: boolean | undefined, action: (rt: ProductRuntime) => unknown) =>
  withRuntime(json, action, 'control', { localStore: true });
import { printJson } from '../output.js';

/** The local user owns the data folder: the CLI calls with every scope, through the same method table. */
export async function callLocal(rt: RuntimeHandle, method: MethodName, params: unknown): Promise<unknown> {
  const response = await rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ALL_SCOPES, clientId: 'cli' });
  if ('error' in response && response.error) throw new AgentDeskError(response.error.code, response.error.message, response.error.details);
  return (response as { result: unknown }).result;
}

/** The value from stdin (never from argv, which other users can read in the process list). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('secret value (then Enter and Ctrl-D): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `agent-desk secrets set|list|delete`: provider keys and other write-only values. */
export function registerSecrets(program: Command): void {
  const secrets = program.command('secrets').description('write-only secrets (provider keys): values are never shown');
  secrets
    .command('set <name>')
    .description('store a secret read from stdin, e.g. printf %s "$KEY" | agent-desk secrets set github-token --host api.github.com')
    .option(
      '--host <host>',
      'a host tool calls may send it to as ${secret:<name>} (repeatable; api.example.com, api.example.com:8443, *.example.com); without it the bound hosts stay as they are',
      (host: string, all: string[]) => [...all, host],
      [] as string[],
    )
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean; host: string[] }) => {
      const value = await readStdin();
      await withSecretsRuntime(opts.json, async (rt) => {
        const params = { name, value, ...(opts.host.length > 0 && { hosts: opts.host }) };
        const result = (await callLocal(rt, 'secrets.set', params)) as { name: string; hosts?: string[] };
        if (opts.json) printJson(result);
        else console.log(`stored secret ${name}${result.hosts ? ` (may be sent to ${result.hosts.join(', ')})` : ''}`);
      });
    });
  secrets
    .command('list')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withSecretsRuntime(opts.json, async (rt) => {
        const result = (await callLocal(rt, 'secrets.list', {})) as { names: string[]; secrets: { name: string; hosts: string[] }[] };
        if (opts.json) printJson(result);
        else for (const { name, hosts } of result.secrets) console.log(hosts.length > 0 ? `${name}  → ${hosts.join(', ')}` : name);
      }),
    );
  secrets
    .command('delete <name>')
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }) =>
      withSecretsRuntime(opts.json, async (rt) => {
        const result = (await callLocal(rt, 'secrets.delete', { name })) as { deleted: boolean };
        if (opts.json) printJson(result);
        else console.log(result.deleted ? `deleted secret ${name}` : `no secret named ${name}`);
      }),
    );
}
