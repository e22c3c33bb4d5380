import { existsSync, readFileSync } from 'node:fs';
import { AgentRuntime, type RuntimeOptions } from '../../runtime/agentRuntime.js';
import { loadConfig, resolveHome } from '../../runtime/config.js';
import { agentHandlers } from '../../runtime/gateway/agentHandlers.js';
import { memoryHandlers } from '../../runtime/gateway/memoryHandlers.js';
import { schedulerHandlers } from '../../runtime/gateway/schedulerHandlers.js';
import { intentHandlers } from '../../runtime/gateway/intentHandlers.js';
import { redactStoredSecrets, settingsHandlers } from '../../runtime/gateway/settingsHandlers.js';
import { runtimeGoalPlans } from '../../runtime/planning/llm/goalRuntime.js';
import { runtimeReplayPlans } from '../../runtime/planning/record/replayRuntime.js';
import type { SecretStore } from '../../runtime/secrets/secretStore.js';
import { FileSecretStore } from '../secrets/fileSecretStore.js';
import { browserRuntimeParts } from '../browser/browserRuntimeParts.js';
import { desktopRuntimeParts, reapDesktopOrphans } from '../gui/desktopRuntimeParts.js';
import { mcpRuntimeParts } from '../mcp/mcpRuntimeParts.js';
import { ProcessServiceHost } from '../services/processServices.js';
import { runtimeTelemetry } from '../telemetry/runtimeTelemetry.js';
import { ProcessHookRunner } from '../hooks/processHookRunner.js';

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

/**
 * The one composition of the runtime with its real capabilities, shared by the CLI and the
 * Electron main process: data under AGENT_DESK_HOME, config from its config.json.
 */
export function openRuntime(
  role: RuntimeRole = 'full',
  opts: { warmSandboxes?: boolean; secrets?: SecretStore; openUrl?: (url: URL) => Promise<void> } = {},
): AgentRuntime {
  const home = resolveHome();
  const config = loadConfig(home);
  const version = packageVersion();
  // Electron main passes OS-backed storage; the headless runtime keeps an encrypted file.
  const secrets = opts.secrets ?? new FileSecretStore(home);
  const core: RuntimeOptions = {
    home,
    config,
    services: new ProcessServiceHost(),
    version,
    secrets,
    // Hooks run in every role: a control process takes messages (UserPromptSubmit) and ends tasks (TaskEnd).
    hookRunner: new ProcessHookRunner(),
    handlers: [schedulerHandlers, memoryHandlers, agentHandlers, settingsHandlers(secrets), intentHandlers],
  };
  if (role === 'control') return withSecretsRedacted(new AgentRuntime(core), secrets);
  // Off unless an OTLP endpoint is named (config.json `telemetry.otlp` or OTEL_EXPORTER_OTLP_*).
  const telemetry = runtimeTelemetry(config, version, secrets);
  // An MCP server's OAuth consent page opens in the browser where the shell can open one (Electron); headless, `mcp login` prints it.
  const mcp = mcpRuntimeParts(home, version, secrets, opts.openUrl && { openUrl: opts.openUrl });
  // A waiting task's saved page keeps nothing that holds a known secret (the runtime's redactor decides).
  const browser = browserRuntimeParts(config, home, (text) => rt.redactor.text(text) !== text);
  const desktop = desktopRuntimeParts({
    home,
    poolSize: config.sandbox.poolSize,
    egressAllow: config.sandbox.egressAllow,
    allowWrites: config.policy.allowWrites,
    liveFps: config.sandbox.liveFps,
    screen: config.sandbox.screen,
    ...(config.sandbox.image ? { image: config.sandbox.image } : {}),
  });
  let reaping: Promise<unknown> = Promise.resolve();
  const rt: AgentRuntime = new AgentRuntime({
    ...core,
    ...(telemetry && { telemetry: telemetry.options }),
    tools: [...mcp.tools, ...browser.tools, ...desktop.tools],
    handlers: [...mcp.handlers, ...(core.handlers ?? []), desktop.handlers],
    runChecks: desktop.runChecks,
    // Goal tasks plan with a model; recorded playbooks call one only to heal a failing step.
    plans: (playbooks) => runtimeGoalPlans((): AgentRuntime => rt, secrets)(runtimeReplayPlans((): AgentRuntime => rt, secrets)(playbooks)),
    // A server leaving with runs in flight still finishes saving its waiting tasks' pages.
    onStop: browser.onStop,
    // The exporter's last flush comes after MCP, browsers and desktops are released (their spans ended).
    onClose: [
      ...mcp.onClose,
      ...browser.onClose,
      async () => void (await reaping),
      ...desktop.onClose,
      ...(telemetry ? [telemetry.shutdown] : []),
    ],
  });
  mcp.attach(rt);
  browser.attach(rt);
  desktop.attach(rt);
  // Start-up: remove sandboxes a killed runtime of this data folder left (but those of tasks that may resume; awaited by close).
  reaping = reapDesktopOrphans(desktop, rt).catch(() => []);
  withSecretsRedacted(rt, secrets);
  // A long-lived gateway fills the warm pool at start, so the first task's desktop is ready.
  if (opts.warmSandboxes) void desktop.prewarm().catch((error: Error) => process.emitWarning(`warm pool: ${error.message}`));
  return rt;
}

/** Stored secret values join the redactor before anything runs (a broken store only warns here). */
function withSecretsRedacted(rt: AgentRuntime, secrets: SecretStore): AgentRuntime {
  try {
    redactStoredSecrets(rt.redactor, secrets);
  } catch (error) {
    process.emitWarning(`secrets: ${(error as Error).message}`);
  }
  return rt;
}
