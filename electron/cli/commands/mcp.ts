import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ScopeSchema, type MethodName, type Scope } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { openRuntime, withRuntime } from '../openRuntime.js';
import { parsePairs, printJson, reportError, row } from '../output.js';
import { untilStopSignal } from '../stopSignal.js';
import { personSignInFor } from './mcpPersonSignIn.js';

const DEFAULT_SCOPES = 'operator.read,operator.write';

/** `agent-desk mcp serve|servers …`: Agent Desk as an MCP server, and the MCP servers it uses. */
export function registerMcp(program: Command): void {
  const mcp = program.command('mcp').description('MCP: serve Agent Desk to MCP clients, manage the MCP servers it uses');
  mcp
    .command('serve')
    .description('serve Agent Desk over MCP (stdio by default; --http for Streamable HTTP)')
    .option('--http', 'serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio')
    .option('--host <host>', 'address to bind (HTTP)', '127.0.0.1')
    .option('--port <port>', 'port (HTTP; 0 = any free port)', '7718')
    .option('--token <token>', 'bearer token (HTTP; default AGENT_DESK_MCP_TOKEN or a new random one)')
    .option('--scopes <list>', `scopes granted to MCP clients (add operator.approvals to let them decide)`, DEFAULT_SCOPES)
    .action(async (opts: { http?: boolean; host: string; port: string; token?: string; scopes: string }) => {
      let rt: ReturnType<typeof openRuntime> | undefined;
      try {
        const scopes = parseScopes(opts.scopes);
        rt = openRuntime();
        // The MCP server side (and its HTTP framework) loads only for this command.
        const { serveMcpHttp, serveMcpStdio } = await import('../../capabilities/mcp/server/mcpServe.js');
        if (!opts.http) return await serveMcpStdio(await rt, { scopes, clientId: 'mcp:stdio' });
        const token = opts.token ?? process.env.AGENT_DESK_MCP_TOKEN ?? randomBytes(24).toString('base64url');
        const endpoint = await serveMcpHttp(await rt, {
          host: opts.host,
          port: Number(opts.port),
          token,
          identity: { scopes, clientId: 'mcp:http' },
        });
        const info = path.join((await rt).home, 'mcp-server.json');
        writeFileSync(info, JSON.stringify({ url: endpoint.url, token, pid: process.pid }, null, 2), { mode: 0o600 });
        console.log(`Agent Desk MCP server at ${endpoint.url} (bearer token in ${info})`);
        await untilStopSignal();
        await endpoint.close();
        // As `serve` does: runs in flight (one waiting for an approval, say) stay recorded and
        // resumable; waiting for them here would keep a stopped server alive indefinitely.
        await (await rt).store.close();
        process.exit(0);
      } catch (error) {
        process.exitCode = reportError(error, false);
      } finally {
        await (await rt)?.close().catch(() => undefined);
      }
    });

  mcp
    .command('login <name>')
    .description(
      'authorize Agent Desk with an OAuth-protected HTTP server: prints the consent URL (or, for cross-app access, the identity provider’s sign-in) and waits for the browser',
    )
    .option('--fresh', 'forget stored tokens first (a new consent even when they still work)')
    .option('--timeout <seconds>', 'how long to wait for the browser', '300')
    .option('--json', 'print the server status as JSON when done')
    .action((name: string, opts: { fresh?: boolean; timeout: string; json?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const manager = rt.mcp?.manager;
        if (!manager) throw new AgentDeskError('unavailable', 'this runtime has no MCP client');
        const timeoutMs = Number(opts.timeout) * 1000;
        if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
          throw new AgentDeskError('invalid_params', `--timeout must be a positive number of seconds, not "${opts.timeout}"`);
        const identity = await personSignInFor(rt.home, name, (url) =>
          process.stderr.write(`To sign in for MCP server ${name} with your organisation, open this address:\n\n  ${url}\n\n`),
        );
        const status = await manager.login(
          name,
          { openUrl: (url) => printConsentUrl(name, url, timeoutMs), timeoutMs },
          Boolean(opts.fresh),
          identity,
        );
        if (opts.json) printJson(status);
        else console.log(`${name}: authorized, ${status.tools.length} tools (tokens kept in the secret store, never in mcp.json)`);
      }),
    );
  mcp
    .command('logout <name>')
    .description("forget an HTTP server's OAuth tokens and client registration")
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const forgotten = (await rt.mcp?.manager.logout(name)) ?? false;
        if (opts.json) printJson({ name, forgotten });
        else console.log(forgotten ? `${name}: OAuth tokens forgotten` : `${name}: no OAuth tokens were stored`);
      }),
    );

  const servers = mcp.command('servers').description('the MCP servers Agent Desk connects to ($AGENT_DESK_HOME/mcp.json)');
  servers
    .command('list')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      callAdmin(opts.json, 'mcp.servers.list', {}, (r) => {
        for (const s of (r as { servers: { name: string; state: string; transport: string; tools: unknown[]; reason?: string }[] }).servers)
          console.log(row([s.name, s.transport, s.state, `${s.tools.length} tools`, s.reason ?? ''], [20, 6, 11, 10, 0]));
      }),
    );
  servers
    .command('add <name> [command...]')
    .description('add a server: `add fs -- npx -y @modelcontextprotocol/server-filesystem /data` or `add web --url http://…/mcp`')
    .option('--url <url>', 'a Streamable HTTP server')
    .option('--header <k=v...>', 'HTTP header (repeatable)', [])
    .option('--env <k=v...>', 'environment for a stdio server (repeatable)', [])
    .option('--timeout <ms>', 'per-call timeout in ms')
    .option('--client-id <id>', 'OAuth: a client registered beforehand with the authorization server')
    .option('--client-secret-secret <name>', "OAuth: the stored secret holding that client's secret (agent-desk secrets set <name>)")
    .option('--client-key-secret <name>', "OAuth: the stored secret holding that client's private key (PEM), for private_key_jwt")
    .option('--client-key-algorithm <alg>', "OAuth: that key's signing algorithm (default ES256)")
    .option('--scope <scopes>', 'OAuth: scopes to ask for when the server names none')
    .option('--redirect-uri <uri>', 'OAuth: fixed loopback redirect URI, e.g. http://127.0.0.1:8765/callback')
    .option('--oauth-grant <grant>', 'OAuth: authorization_code (default, a person consents) or client_credentials')
    .option('--replace', 'replace an existing server of that name')
    .option('--json', 'print JSON')
    .action((name: string, command: string[], opts: AddOptions) => {
      const timeout = opts.timeout === undefined ? {} : { timeoutMs: Number(opts.timeout) };
      const oauth = oauthOptions(opts);
      const server = opts.url
        ? { transport: 'http', url: opts.url, headers: parsePairs(opts.header), ...timeout, ...(oauth && { oauth }) }
        : { transport: 'stdio', command: command[0] ?? '', args: command.slice(1), env: parsePairs(opts.env), ...timeout };
      return callAdmin(opts.json, 'mcp.servers.add', { name, server, replace: Boolean(opts.replace) }, (r) => printStatus(r));
    });
  servers
    .command('remove <name>')
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }) =>
      callAdmin(opts.json, 'mcp.servers.remove', { name }, (r) =>
        console.log((r as { removed: boolean }).removed ? `removed ${name}` : `no server named ${name}`),
      ),
    );
  servers
    .command('test <name>')
    .description('connect and list tools, resources and prompts')
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }) => callAdmin(opts.json, 'mcp.servers.test', { name }, (r) => printStatus(r)));
}

interface AddOptions {
  url?: string;
  header: string[];
  env: string[];
  timeout?: string;
  clientId?: string;
  clientSecretSecret?: string;
  clientKeySecret?: string;
  clientKeyAlgorithm?: string;
  scope?: string;
  redirectUri?: string;
  oauthGrant?: string;
  replace?: boolean;
  json?: boolean;
}

/** The `oauth` block of an HTTP server from the --client-id … flags (validated with the rest by the method's schema). */
function oauthOptions(opts: AddOptions): Record<string, string> | undefined {
  const oauth = Object.fromEntries(
    Object.entries({
      clientId: opts.clientId,
      clientSecretSecret: opts.clientSecretSecret,
      clientKeySecret: opts.clientKeySecret,
      clientKeyAlgorithm: opts.clientKeyAlgorithm,
      scope: opts.scope,
      redirectUri: opts.redirectUri,
      grant: opts.oauthGrant,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return Object.keys(oauth).length > 0 ? oauth : undefined;
}

/** Runs an mcp.servers method through the method table as the local admin (the CLI owns the data folder). */
function callAdmin(json: boolean | undefined, method: MethodName, params: unknown, print: (result: unknown) => void): Promise<void> {
  return withRuntime(json, async (rt) => {
    const response = await rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ['operator.admin'], clientId: 'cli' });
    if ('error' in response && response.error)
      throw new AgentDeskError(response.error.code, response.error.message, response.error.details);
    const result = (response as { result: unknown }).result;
    if (json) printJson(result);
    else print(result);
  });
}

/** The consent step of `mcp login`: stderr keeps stdout for `--json`. */
function printConsentUrl(name: string, url: URL, timeoutMs: number): void {
  const back = url.searchParams.get('redirect_uri') ?? 'the loopback listener';
  process.stderr.write(
    `To authorize Agent Desk with MCP server ${name}, open this URL in a browser:\n\n  ${url.href}\n\n` +
      `Waiting up to ${Math.round(timeoutMs / 1000)} s for the browser to come back to ${back} …\n`,
  );
}

function printStatus(result: unknown): void {
  const s = result as { name: string; state: string; reason?: string; tools: { name: string; risk: string }[] };
  console.log(`${s.name}: ${s.state}${s.reason ? ` (${s.reason})` : ''}`);
  for (const t of s.tools) console.log(row([`  ${t.name}`, t.risk], [50, 0]));
}

/** `a,b` → scopes; an unknown name is `invalid_params` listing the known ones. */
export function parseScopes(list: string): Scope[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const parsed = ScopeSchema.safeParse(s);
      if (!parsed.success) throw new AgentDeskError('invalid_params', `unknown scope "${s}"; use ${ScopeSchema.options.join(', ')}`);
      return parsed.data;
    });
}
