import { existsSync, readFileSync } from 'node:fs';
import { assembleRuntime, type AssemblyOptions, type ModuleList, type Runtime } from '../../runtime/assembleRuntime.js';
import type { Config } from '../../contract/index.js';
import { loadConfig, resolveHome } from '../../runtime/config.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { openSqlDatabase, storeTarget } from '../../runtime/store/sql/openSqlDatabase.js';
import type { RuntimeModule } from '../../runtime/core/runtimeModule.js';
import { redactStoredSecrets } from '../../runtime/gateway/settingsHandlers.js';
import { storeWatchModule } from '../../runtime/gateway/storeWatch.js';
import type { InProcessModel } from '../../runtime/planning/llm/goalsModule.js';
import type { SecretStore } from '../../runtime/secrets/secretStore.js';
import { Redactor } from '../../runtime/trace/redactor.js';
import { browserModule } from '../browser/browserModule.js';
import { desktopModule, type DesktopModule, type DesktopOverrides } from '../gui/desktopModule.js';
import { ProcessHookRunner } from '../hooks/processHookRunner.js';
import { mcpModule, type McpModule } from '../mcp/mcpModule.js';
import { FileSecretStore } from '../secrets/fileSecretStore.js';
import { ProcessServiceHost } from '../services/processServices.js';
import { runtimeTelemetry } from '../telemetry/runtimeTelemetry.js';

/**
 * The package version from package.json: four folders up from the built file (dist/electron/…),
 * three from the source one, so the composition also runs from source (tests).
 */
export function packageVersion(): string {
  for (const up of ['../../../../package.json', '../../../package.json']) {
    const file = new URL(up, import.meta.url);
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (pkg.name === 'agent-desk') return pkg.version;
  }
  throw new Error(`package.json of agent-desk not found above ${import.meta.url}`);
}

/**
 * What a process needs from its runtime. `control` (list, inspect, decide) opens the store and
 * the method table only; `full` also wires MCP, the browser and desktop sandboxes and reaps
 * sandboxes a killed runtime left behind — the part that talks to Docker.
 */
export type RuntimeRole = 'full' | 'control';

/** The runtime as the product ships it: the assembly, plus the MCP manager and desktops of a full one. */
export interface ProductRuntime extends Runtime {
  /** Absent in a control runtime. */
  readonly mcp: McpModule | undefined;
  readonly desktop: DesktopModule | undefined;
}

/** What an entry point may choose; everything else comes from AGENT_DESK_HOME and its config.json. */
export interface OpenRuntimeOptions {
  /** A long-lived gateway fills the warm pool at start, so the first task's desktop is ready. */
  warmSandboxes?: boolean;
  /** Electron main passes OS-backed storage; the headless runtime keeps an encrypted file. */
  /**
   * Open the home's SQLite file even when a PostgreSQL store is configured: for commands that
   * keep nothing in the database (`secrets`, which must work before the store's password is stored).
   */
  localStore?: boolean;
  secrets?: SecretStore;
  /** An MCP server's OAuth consent page opens in the browser where the shell can open one (Electron). */
  openUrl?: (url: URL) => Promise<void>;
  /** The data folder; default AGENT_DESK_HOME (bench and eval open a temp folder). */
  home?: string;
  /** Goal tasks plan with this in-process model instead of the configured ones (bench, eval: a scripted model). */
  model?: InProcessModel;
  /** The background queue's concurrency, over the config's (`queue run --concurrency`). */
  scheduler?: { concurrency?: number };
  /** Overrides of the desktop tier (tests pin an image). */
  desktop?: DesktopOverrides;
  /** Publish what other processes change in the store to this one's views (a gateway: `serve`, the desktop app). */
  watchStore?: boolean;
  /**
   * The process stops the runtime itself on SIGINT/SIGTERM/SIGHUP (`serve`), so no library closes
   * its parts first: a waiting task's page must be saved before Chromium goes.
   */
  processOwnsSignals?: boolean;
  /** False in a gateway that runs no tasks (`serve --no-worker`): it hands them to workers through the queue. */
  runsTasks?: boolean;
  /** More modules after the product's (a bench's own tools). */
  modules?: ModuleList;
  /** Core settings a bench or test tunes (lease polling, retry backoff). */
  core?: Pick<AssemblyOptions, 'pollMs' | 'retryBackoffMs' | 'clock' | 'loopThreshold'>;
}

/**
 * The one composition of the runtime with its real capabilities, shared by the CLI, the
 * Electron main process, eval and bench: data under AGENT_DESK_HOME, config from its config.json.
 * See docs/architecture.md, "Modules and the one assembly".
 */
export async function openRuntime(role: RuntimeRole = 'full', opts: OpenRuntimeOptions = {}): Promise<ProductRuntime> {
  const home = opts.home ?? resolveHome();
  const config = loadConfig(home);
  const version = packageVersion();
  const secrets = opts.secrets ?? new FileSecretStore(home);
  const store = opts.localStore ? undefined : await preparedStore(home, config, secrets);
  // Off unless an OTLP endpoint is named (config.json `telemetry.otlp` or OTEL_EXPORTER_OTLP_*); a control process exports nothing.
  const telemetry = role === 'full' ? runtimeTelemetry(config, version, secrets) : undefined;
  let mcp: McpModule | undefined;
  let desktop: DesktopModule | undefined;
  const options: AssemblyOptions = {
    ...opts.core,
    home,
    config,
    ...(store && { storeTarget: store }),
    version,
    secrets,
    services: new ProcessServiceHost(),
    // Hooks run in every role: a control process takes messages (UserPromptSubmit) and ends tasks (TaskEnd).
    hookRunner: new ProcessHookRunner(),
    ...(telemetry && { telemetry: telemetry.options }),
    ...(opts.model && { model: opts.model }),
    ...(opts.scheduler && { scheduler: opts.scheduler }),
    ...(opts.runsTasks === false && { runsTasks: false }),
  };
  const rt = assembleRuntime(options, (core, features) => {
    const watch = opts.watchStore ? [storeWatchModule(core)] : [];
    if (role === 'control') return [...watch, ...(opts.modules?.(core, features) ?? [])];
    mcp = mcpModule(core, secrets, opts.openUrl && { openUrl: opts.openUrl });
    desktop = desktopModule(core, opts.desktop);
    // Closed last, so the exporter's last flush comes after MCP, browsers and desktops are released (their spans ended).
    const exporter: RuntimeModule[] = telemetry ? [{ name: 'telemetry', close: telemetry.shutdown }] : [];
    return [
      ...exporter,
      ...watch,
      mcp,
      browserModule(core, { processOwnsSignals: opts.processOwnsSignals }),
      desktop,
      ...(opts.modules?.(core, features) ?? []),
    ];
  });
  learnStoredSecrets(rt.redactor, secrets);
  if (opts.warmSandboxes) void desktop?.prewarm().catch((error: Error) => process.emitWarning(`warm pool: ${error.message}`));
  return Object.assign(rt, { mcp, desktop });
}

/**
 * The store the runtime opens: the home's SQLite file (migrated when the core opens it), or a
 * PostgreSQL server, reached and migrated here first — an unreachable or refusing server is one
 * `bad_state` line saying what to fix, before anything else starts.
 */
async function preparedStore(home: string, config: Config, secrets: SecretStore): Promise<AssemblyOptions['storeTarget']> {
  const target = storeTarget(home, config.store, secrets);
  if (target.kind !== 'postgres') return undefined;
  const { db } = await openSqlDatabase(target, new Redactor());
  await db.close();
  return target;
}

/** Stored secret values join the redactor before anything runs (a broken store only warns here). */
function learnStoredSecrets(redactor: Redactor, secrets: SecretStore): void {
  try {
    redactStoredSecrets(redactor, secrets);
  } catch (error) {
    process.emitWarning(`secrets: ${(error as Error).message}`);
  }
}
