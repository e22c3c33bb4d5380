import type { Command } from 'commander';
import { loopbackSignIn, type GatewaySignIn } from '../../capabilities/transports/oidcLoopback.js';
import { connectGateway } from '../../capabilities/transports/wsClient.js';
import { RPC_PATH } from '../../capabilities/transports/wsServer.js';
import type { MethodResult } from '../../contract/index.js';
import { loadConfig, resolveHome } from '../../runtime/config.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { readGatewayFile } from '../gatewayToken.js';
import { printJson, reportError } from '../output.js';
import { readSession, removeSession, writeSession } from '../session.js';

/** `agent-desk login|logout|whoami`: a person signs in to a gateway with its identity provider. */
export function registerLogin(program: Command): void {
  program
    .command('login')
    .description('sign in to a gateway with its identity provider (opens the provider in a browser; loopback redirect)')
    .option('--gateway <url>', 'the gateway’s address (default: the serve of this data folder, else the configured host and port)')
    .option('--json', 'print JSON')
    .action((opts: { gateway?: string; json?: boolean }) =>
      run(opts.json, async () => {
        const home = resolveHome();
        const gateway = opts.gateway ?? defaultGateway(home);
        const signIn = await gatewaySignIn(gateway);
        const idToken = await loopbackSignIn(signIn, (url) => console.log(`Open this address to sign in:\n  ${url}`));
        const session = await exchange(gateway, idToken);
        const rpc = new URL(RPC_PATH, gateway.replace(/^http/, 'ws')).href;
        writeSession(home, { gateway, rpc, ...session });
        if (opts.json) return printJson({ subject: session.subject, name: session.name, roles: session.roles, gateway });
        console.log(`Signed in as ${session.name} (${session.roles.join(', ')}) at ${gateway}`);
      }),
    );
  program
    .command('logout')
    .description('forget this data folder’s sign-in')
    .action(() => console.log(removeSession(resolveHome()) ? 'Signed out.' : 'Not signed in.'));
  program
    .command('whoami')
    .description('who the kept sign-in acts as, asked of the gateway')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      run(opts.json, async () => {
        const me = await callAsSignedIn(resolveHome(), 'people.me', {});
        if (opts.json) return printJson(me);
        console.log(`${me.name} (${me.roles.join(', ')})`);
      }),
    );
}

/** Calls the gateway as the signed-in person of this data folder. */
export async function callAsSignedIn<M extends 'people.me' | 'approvals.decide'>(
  home: string,
  method: M,
  params: unknown,
): Promise<MethodResult<M>> {
  const session = readSession(home);
  if (!session) throw new AgentDeskError('unauthorized', 'not signed in: agent-desk login');
  const client = await connectGateway(session.rpc, session.token).catch((e: unknown) => {
    const code = (e as { code?: string }).code;
    throw code === 'unauthorized'
      ? new AgentDeskError('unauthorized', 'the sign-in has expired or was revoked: agent-desk login')
      : new AgentDeskError('unavailable', `the gateway ${session.gateway} cannot be reached: ${(e as Error).message}`);
  });
  try {
    return (await client.call(method, params as never)) as MethodResult<M>;
  } finally {
    await client.close();
  }
}

function defaultGateway(home: string): string {
  const running = readGatewayFile(home)?.httpUrl;
  if (running) return running;
  const { host, port } = loadConfig(home).gateway;
  return `http://${host}:${port}`;
}

async function gatewaySignIn(gateway: string): Promise<GatewaySignIn> {
  const response = await fetch(new URL('/auth/config', gateway)).catch((e: unknown) => {
    throw new AgentDeskError('unavailable', `the gateway ${gateway} cannot be reached: ${(e as Error).message}`);
  });
  if (response.status === 404) throw new AgentDeskError('not_found', `the gateway ${gateway} signs nobody in (no auth.oidc in its config)`);
  if (!response.ok) throw new AgentDeskError('unavailable', `the gateway ${gateway} answered ${response.status} for its sign-in settings`);
  const config = (await response.json()) as GatewaySignIn & { signIn?: boolean };
  if (!config.signIn) throw new AgentDeskError('not_found', `the gateway ${gateway} signs nobody in (no auth.oidc in its config)`);
  return config;
}

async function exchange(gateway: string, idToken: string): Promise<{ token: string; subject: string; name: string; roles: string[] }> {
  const response = await fetch(new URL('/auth/exchange', gateway), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id_token: idToken }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    token?: string;
    subject?: string;
    name?: string;
    roles?: string[];
    error?: { message?: string };
  };
  if (!response.ok || !body.token) {
    throw new AgentDeskError(
      response.status === 403 ? 'forbidden' : 'unauthorized',
      body.error?.message ?? `the gateway refused the sign-in (${response.status})`,
    );
  }
  return { token: body.token, subject: body.subject ?? '', name: body.name ?? '', roles: body.roles ?? [] };
}

async function run(json: boolean | undefined, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    process.exitCode = reportError(error, Boolean(json));
  }
}
