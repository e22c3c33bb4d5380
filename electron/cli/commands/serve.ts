import type { Command } from 'commander';
import { connectConfiguredMcpServers } from '../../capabilities/mcp/mcpModule.js';
import { issuedTokenVerifier } from '../../capabilities/transports/bearerAuth.js';
import { startWsGateway } from '../../capabilities/transports/wsServer.js';
import { ALL_SCOPES } from '../../contract/index.js';
import { openRuntime } from '../openRuntime.js';
import { reportError } from '../output.js';
import { untilStopSignal } from '../stopSignal.js';
import { gatewayFilePath, gatewayTokenFor, writeGatewayFile } from '../gatewayToken.js';
import { webUiHandler } from '../../capabilities/transports/webUi.js';
import { signInRoutes, withRoute } from '../signInRoutes.js';

/** `agent-desk serve`: the headless gateway (WebSocket RPC on loopback) hosting the runtime. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the headless gateway: WebSocket RPC on 127.0.0.1 with a bearer token')
    .option('--port <port>', 'port (0 = any free port)')
    .option('--host <host>', 'address to bind', undefined)
    .option('--no-worker', 'run no tasks here: hand them to `agent-desk worker` processes on the same store')
    .option(
      '--token <token>',
      'bearer token (default: AGENT_DESK_TOKEN, else the one kept in gateway.json until `tokens rotate`, else a new one)',
    )
    .action(async (opts: { port?: string; host?: string; token?: string; worker: boolean }) => {
      // A gateway shows what other processes on this data folder do too (a CLI `run` beside it).
      // It stops on SIGINT/SIGTERM/SIGHUP itself (below), saving waiting tasks' pages before Chromium closes.
      // A gateway with no worker still knows every tool (it checks playbooks and lists the catalog), but warms no desktop.
      const rt = await openRuntime('full', {
        warmSandboxes: opts.worker,
        watchStore: true,
        processOwnsSignals: true,
        ...(!opts.worker && { runsTasks: false }),
      });
      try {
        // Before the gateway answers, so its first tools.catalog already lists every server's tools.
        await connectConfiguredMcpServers(rt.mcp?.manager);
        const token = gatewayTokenFor(rt.home, opts.token);
        const port = opts.port === undefined ? rt.config.startup.gateway.port : Number(opts.port);
        const gateway = await startWsGateway({
          host: opts.host ?? rt.config.startup.gateway.host,
          port,
          token,
          dispatcher: rt.dispatcher,
          bus: rt.bus,
          // With `auth.oidc`, people sign in at /auth/login (and a CLI at /auth/exchange).
          httpHandler: withRoute(signInRoutes(rt), webUiHandler()),
          // The token holder owns this data folder, so it may also store provider keys from the
          // Settings page: secrets are write-only (no method returns a value).
          scopes: ALL_SCOPES,
          // Tokens from `agent-desk tokens create` open connections with only their own scopes.
          tokens: issuedTokenVerifier(rt.tokens, rt.store.people),
        });
        const infoFile = gatewayFilePath(rt.home);
        writeGatewayFile(rt.home, { url: gateway.url, httpUrl: gateway.httpUrl, token, pid: process.pid });
        // Without a worker, recovery, cron and the queue are the workers' (`agent-desk worker`).
        const recovered = opts.worker ? await rt.engine.recover() : [];
        if (opts.worker) rt.scheduler.start(); // cron jobs fire and queued tasks run while the gateway is up
        console.log(`Agent Desk gateway listening on ${gateway.httpUrl}`);
        console.log(`RPC: ${gateway.url} (bearer token in ${infoFile})`);
        // The token rides in the URL fragment, which browsers never send; print it only to a terminal, not to log files.
        if (process.stdout.isTTY) console.log(`Web UI: ${gateway.httpUrl}/#token=${encodeURIComponent(token)}`);
        else console.log(`Web UI: ${gateway.httpUrl}/ (open it with #token=<token from ${infoFile}>)`);
        if (recovered.length) console.log(`Resumed ${recovered.length} interrupted task(s): ${recovered.join(', ')}`);
        if (!opts.worker) console.log('No worker here: tasks run in `agent-desk worker` processes on this store.');
        await untilStopSignal();
        // Runs in flight stay resumable: their steps are recorded and the next start recovers them.
        await gateway.close();
        await rt.stop(); // a waiting task's page lands on disk, spans end saying what the task was doing
        process.exit(0);
      } catch (error) {
        process.exitCode = reportError(error, false);
        await rt.lease.close();
        await rt.store.close();
      }
    });
}
