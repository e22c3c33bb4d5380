import type { Command } from 'commander';
import type { GatewayToken } from '../../contract/index.js';
import { withControlRuntime } from '../openRuntime.js';
import { printJson, row } from '../output.js';
import { parseScopes } from './mcp.js';
import { callLocal } from './secrets.js';
import { resolveHome } from '../../runtime/config.js';
import { gatewayFilePath, newGatewayToken, readGatewayFile, writeGatewayFile } from '../gatewayToken.js';
import { cliName } from '../cliName.js';
import { connectGateway } from '../../capabilities/transports/wsClient.js';

/** `agent-desk tokens create|list|revoke`: gateway tokens with chosen scopes, e.g. approvals only for a phone. */
export function registerTokens(program: Command): void {
  const tokens = program
    .command('tokens')
    .description('revocable gateway tokens with chosen scopes (the token in gateway.json keeps every scope)');
  tokens
    .command('create')
    .description('issue a token, e.g. --scopes operator.approvals --name phone; the secret is printed once')
    .requiredOption(
      '--scopes <list>',
      'comma-separated: operator.read, operator.write, operator.approvals, operator.admin, operator.secrets',
    )
    .option('--name <name>', 'who or what holds it')
    .option('--json', 'print JSON')
    .action((opts: { scopes: string; name?: string; json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        const params = { scopes: parseScopes(opts.scopes), ...(opts.name !== undefined && { name: opts.name }) };
        const result = (await callLocal(rt, 'tokens.create', params)) as { token: GatewayToken; secret: string };
        if (opts.json) return printJson(result);
        console.log(`${result.token.id}  ${result.token.scopes.join(',')}`);
        console.log(result.secret);
        console.error('This is the only time the token is shown; only its hash is stored.');
      }),
    );
  tokens
    .command('list')
    .option('--all', 'include revoked tokens')
    .option('--json', 'print JSON')
    .action((opts: { all?: boolean; json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        const result = (await callLocal(rt, 'tokens.list', { includeRevoked: Boolean(opts.all) })) as { tokens: GatewayToken[] };
        if (opts.json) return printJson(result);
        for (const t of result.tokens) {
          const state = t.revokedAt ? `revoked ${t.revokedAt}` : `last used ${t.lastUsedAt ?? 'never'}`;
          console.log(row([t.id, t.name ?? '', t.scopes.join(','), state], [18, 12, 40, 0]));
        }
      }),
    );
  tokens
    .command('revoke <id>')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        // A running serve authenticates against its own store, which this shell may not open the same way
        // (AGENT_DESK_DATABASE_URL set in one shell only): the revoke goes to it, so it takes there at once.
        const token = ((await revokeThroughServe(rt.home, id)) ?? (await callLocal(rt, 'tokens.revoke', { id }))) as GatewayToken;
        if (opts.json) printJson(token);
        else console.log(`revoked ${token.id}${token.name ? ` (${token.name})` : ''}`);
      }),
    );
  tokens
    .command('rotate')
    .description('replace the main gateway token kept in gateway.json (a running serve keeps the old one until it restarts)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const home = resolveHome();
      const token = newGatewayToken();
      writeGatewayFile(home, { ...readGatewayFile(home), token });
      if (opts.json) return printJson({ token, file: gatewayFilePath(home) });
      console.log(token);
      console.error(`Stored in ${gatewayFilePath(home)}; restart \`${cliName()} serve\` to use it (open pages: add #token=<new token>).`);
    });
}

/**
 * `tokens.revoke` through the `serve` running on this data folder (gateway.json names it), or
 * undefined when none runs or it does not answer; an error it answers (not_found) is thrown.
 */
async function revokeThroughServe(home: string, id: string): Promise<GatewayToken | undefined> {
  const file = readGatewayFile(home);
  if (file?.url === undefined || file.pid === undefined || !processAlive(file.pid)) return undefined;
  const client = await connectGateway(file.url, file.token, { connectTimeoutMs: 3_000 }).catch(() => undefined);
  if (!client) return undefined;
  try {
    return await client.call('tokens.revoke', { id });
  } finally {
    await client.close().catch(() => undefined);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
