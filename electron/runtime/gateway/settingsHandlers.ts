import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigSchema, type Config } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { AgentDeskError, describeIssues } from '../errors.js';
import { readableIssues } from '../planning/playbook/issues.js';
import { PolicyGate } from '../policy/gate.js';
import type { Redactor } from '../trace/redactor.js';
import { writeFileAtomicSync } from '../secrets/atomicFile.js';
import { SecretHostBindings } from '../secrets/secretHosts.js';
import type { SecretStore } from '../secrets/secretStore.js';
import type { Handlers } from './handlers.js';

/** `settings.*` (the config file) over RPC. */
export function settingsHandlers(rt: Pick<RuntimeCore, 'home' | 'config' | 'gate' | 'hooks'>): Handlers {
  return {
    'settings.get': () => ({ config: rt.config.current() }),
    'settings.set': (p) => {
      const config = writeConfigSections(rt.home, p.config, (next) => {
        if ('policy' in p.config) new PolicyGate(next.policy, NO_GRANTS); // refuse a policy the gate cannot compile, before writing
      });
      if ('policy' in p.config) rt.gate.reload(config.policy);
      if ('hooks' in p.config) rt.hooks?.reload(config.hooks);
      return { config, appliesTo: 'next-task' as const, restartNeeded: restartNeeded(p.config, rt.config.startup) };
    },
  };
}

/** `secrets.*` over RPC: values are write-only (no method returns one). */
export function secretHandlers(rt: Pick<RuntimeCore, 'home' | 'redactor'>, secrets: SecretStore): Handlers {
  const bindings = new SecretHostBindings(rt.home);
  return {
    'secrets.set': (p) => {
      // Known to the redactor before anything could echo it (a provider error, a tool output).
      rt.redactor.add(p.name, p.value);
      // Hosts first: a bad pattern is refused before the value is stored.
      if (p.hosts) bindings.set(p.name, p.hosts);
      secrets.set(p.name, p.value);
      return p.hosts ? { name: p.name, hosts: bindings.hostsOf(p.name) } : { name: p.name };
    },
    'secrets.list': () => {
      const names = secrets.list();
      const hosts = bindings.all();
      return { names, secrets: names.map((name) => ({ name, hosts: hosts[name] ?? [] })) };
    },
    'secrets.delete': (p) => {
      bindings.delete(p.name);
      return { deleted: secrets.delete(p.name) };
    },
  };
}

/** Sections read only at start-up; `policy.allowWrites` is compiled into the browser host when it starts. */
const AT_START = ['budget', 'gateway', 'scheduler', 'sandbox', 'browser', 'durability', 'telemetry'] as const;
const NO_GRANTS = { findGrant: () => Promise.resolve([]) };

/** What of a saved patch waits for a restart: start-up sections that changed, and a changed `policy.allowWrites`. */
function restartNeeded(patch: Record<string, unknown>, running: Config): string[] {
  const differs = (a: unknown, b: unknown) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
  const sections: string[] = AT_START.filter((key) => key in patch && differs(patch[key], running[key]));
  const policy = patch.policy as { allowWrites?: unknown } | null | undefined;
  if (policy !== undefined && differs(policy?.allowWrites ?? [], running.policy.allowWrites)) sections.push('policy.allowWrites');
  return sections;
}

/** Registers every stored secret with the redactor (at start-up), so none is ever written in clear. */
export function redactStoredSecrets(redactor: Redactor, secrets: SecretStore): void {
  for (const name of secrets.list()) {
    const value = secrets.get(name);
    if (value !== undefined && value.length >= 4) redactor.add(name, value);
  }
}

/**
 * Replaces whole top-level sections of `<home>/config.json` (`null` removes one, back to its
 * defaults), validates the result and writes it atomically. Returns the effective config.
 */
export function writeConfigSections(home: string, sections: Record<string, unknown>, check?: (next: Config) => void): Config {
  const file = path.join(home, 'config.json');
  let current: Record<string, unknown> = {};
  try {
    if (existsSync(file)) current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new AgentDeskError('invalid_params', `${file} is not valid JSON (fix it by hand first): ${(error as Error).message}`);
  }
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(sections)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  const parsed = ConfigSchema.safeParse(next);
  if (!parsed.success) {
    const issues = readableIssues(parsed.error.issues, next);
    throw new AgentDeskError('invalid_params', `the config would be invalid:\n${describeIssues(issues)}`, { issues });
  }
  check?.(parsed.data);
  writeFileAtomicSync(file, Buffer.from(`${JSON.stringify(next, null, 2)}\n`), { mode: 0o644 });
  return parsed.data;
}
