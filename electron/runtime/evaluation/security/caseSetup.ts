import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { MethodName } from '../../../contract/index.js';
import { ALL_SCOPES } from '../../../contract/index.js';
import type { RuntimeHandle } from '../../core/runtimeCore.js';
import { AgentDeskError } from '../../errors.js';
import type { Route, SecurityCase, SiteName } from './securityCase.js';

/** Template values of one case run. */
export type CaseVars = Record<string, string>;

/**
 * The obedient model as a configured provider, and the allowlist: the `site` and the secret's
 * `api`, with their ports — for a desktop case the sandbox egress allowlist too.
 */
export function caseConfig(modelUrl: string, origins: Record<SiteName, string>, desktop = false): Record<string, unknown> {
  const hostPort = (origin: string) => new URL(origin).host;
  const allowed = [hostPort(origins.site), hostPort(origins.api)];
  return {
    policy: { networkAllow: allowed },
    ...(desktop && { sandbox: { egressAllow: allowed } }),
    models: {
      providers: { obedient: { kind: 'openai-chat', baseUrl: modelUrl, apiKeySecret: 'model-key' } },
      defaultModel: 'obedient:obedient-1',
      prices: { 'obedient-1': { inputPerMTok: 0.15, outputPerMTok: 0.6 } },
    },
  };
}

/** Why a desktop case cannot run here (no Docker engine configured), or undefined. */
export function desktopMissing(): string | undefined {
  if (process.env.DOCKER_HOST || existsSync('/var/run/docker.sock')) return undefined;
  return 'no Docker engine (no /var/run/docker.sock, no DOCKER_HOST)';
}

/** Fills `{{name}}` from `vars`; `{{last}}` is the model's own and stays. */
export function fill(text: string, vars: CaseVars): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name === 'last' ? whole : (vars[name] ?? whole)));
}

/** The case's routes with every template filled. */
export function filledRoutes(routes: SecurityCase['routes'], vars: CaseVars): Partial<Record<SiteName, Record<string, Route>>> {
  const out: Partial<Record<SiteName, Record<string, Route>>> = {};
  for (const [site, table] of Object.entries(routes) as [SiteName, Record<string, Route>][]) {
    out[site] = Object.fromEntries(
      Object.entries(table).map(([p, route]) => [
        p,
        typeof route === 'string'
          ? fill(route, vars)
          : {
              ...route,
              body: fill(route.body, vars),
              headers: Object.fromEntries(Object.entries(route.headers).map(([k, v]) => [k, fill(v, vars)])),
              ...(route.redirect !== undefined && { redirect: fill(route.redirect, vars) }),
            },
      ]),
    );
  }
  return out;
}

/** Writes the case's files into the workspace; returns what each holds, to notice changes later. */
export function writeCaseFiles(workspace: string, files: Record<string, string>, vars: CaseVars): Record<string, string> {
  const written: Record<string, string> = {};
  for (const [relative, text] of Object.entries(files)) {
    const target = path.resolve(workspace, relative);
    if (!target.startsWith(workspace + path.sep))
      throw new AgentDeskError('invalid_params', `case file path escapes the workspace: ${relative}`);
    mkdirSync(path.dirname(target), { recursive: true });
    written[relative] = fill(text, vars);
    writeFileSync(target, written[relative]);
  }
  return written;
}

/** Calls the method table as the local user does (every scope), so setup goes through the product's own API. */
export async function callLocal(rt: RuntimeHandle, method: MethodName, params: unknown): Promise<unknown> {
  const response = await rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ALL_SCOPES, clientId: 'eval-security' });
  if ('error' in response && response.error) throw new AgentDeskError(response.error.code, response.error.message, response.error.details);
  return (response as { result: unknown }).result;
}

/**
 * Stores the model key and the secret with `secrets.set`, the secret bound to the `api` host
 * where the product supports binding (`hosts`), else unbound. No name: the secret stays unknown.
 */
export async function storeSecrets(rt: RuntimeHandle, secretName: string | undefined, secret: string, apiHost: string): Promise<void> {
  await callLocal(rt, 'secrets.set', { name: 'model-key', value: `model-key-${randomBytes(8).toString('hex')}` });
  if (secretName === undefined) return;
  try {
    await callLocal(rt, 'secrets.set', { name: secretName, value: secret, hosts: [apiHost] });
  } catch (error) {
    if (!(error instanceof AgentDeskError) || error.code !== 'invalid_params') throw error;
    await callLocal(rt, 'secrets.set', { name: secretName, value: secret });
  }
}

/** Where the suite's own services live, and the reference filesystem server's entry. */
export interface McpPaths {
  servicesDir: string;
  textFile: string;
  effectsFile: string;
  workspace: string;
}

/** Adds the case's MCP servers with `mcp.servers.add` (which connects and caches their tools). */
export async function addMcpServers(rt: RuntimeHandle, which: SecurityCase['mcp'], paths: McpPaths): Promise<void> {
  for (const name of which) {
    const server =
      name === 'inject'
        ? {
            transport: 'stdio',
            command: process.execPath,
            args: [path.join(paths.servicesDir, 'injectingMcpServer.mjs')],
            env: { MCP_TEXT_FILE: paths.textFile, EFFECTS_FILE: paths.effectsFile },
          }
        : {
            transport: 'stdio',
            command: process.execPath,
            args: [referenceFilesystemServer(), paths.workspace],
            // Its reads share file.read with fs.read, which would shadow them; the user says they want this server's.
            capabilities: { read_text_file: ['files.read_text'] },
          };
    const status = (await callLocal(rt, 'mcp.servers.add', { name, server })) as { state?: string; reason?: string };
    if (status.state !== 'connected')
      throw new AgentDeskError('unavailable', `MCP server ${name} did not connect: ${status.reason ?? status.state}`);
  }
}

function referenceFilesystemServer(): string {
  return createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
}
