import { ToolError, type AnyTool } from '../tools/types.js';
import type { Redactor } from '../trace/redactor.js';
import { hostMatches, type SecretHostBindings } from './secretHosts.js';
import type { SecretStore } from './secretStore.js';

/** `${secret:<name>}` in a tool argument: the value is put in only when the call executes. */
const SECRET_REF = /\$\{secret:([A-Za-z0-9][A-Za-z0-9._-]*)\}/g;

/** Where a call's secret references are looked up. */
export interface SecretSource {
  /** The clear value, or undefined when no such secret is stored. */
  value(name: string): string | undefined;
  /** Host patterns the secret may be sent to (`secrets set <name> --host …`). */
  hosts(name: string): string[];
}

/** Values from a secret store, hosts from the bindings next to it (both read at each call: another process may change them). */
export function boundSecrets(store: SecretStore, bindings: SecretHostBindings): SecretSource {
  return { value: (name) => store.get(name), hosts: (name) => bindings.hostsOf(name) };
}

/** A call that would send a secret where it may not go; nothing was sent. */
export class SecretNotAllowedError extends ToolError {
  constructor(message: string) {
    super(`secret_not_allowed: ${message}`, false, 'secret_not_allowed');
    this.name = 'SecretNotAllowedError';
  }
}

/** Names of the secrets referenced anywhere in a JSON-like value (keys included), in order, once each. */
export function secretRefNames(value: unknown): string[] {
  const names = new Set<string>();
  visitStrings(value, (text) => {
    if (!text.includes('${secret:')) return; // the common case, without a regex over large content
    for (const match of text.matchAll(SECRET_REF)) names.add(match[1]!);
  });
  return [...names];
}

/**
 * The arguments a call actually runs with: every `${secret:name}` replaced by its value — only
 * when the call is an API-tier call that names the host it sends to (its classification's
 * `host`), every referenced secret is bound to that host, and substituting does not change that
 * host. Anything else is a `secret_not_allowed` error before the tool runs. Each value joins the
 * redactor first, so an echo of it (a response, an error) is redacted like any known secret.
 */
export function resolveSecretRefs(
  tool: AnyTool,
  args: unknown,
  ctx: { workspace: string; secrets: SecretSource | undefined; redactor: Redactor },
): unknown {
  const names = secretRefNames(args);
  if (names.length === 0) return args;
  const first = names[0]!;
  // A browser or desktop call's result can be pixels (the address bar in a screenshot), which the
  // redactor cannot search: only API calls, whose results are text, may carry a value.
  const destination = tool.tier === 'api' ? tool.classify(args, { workspace: ctx.workspace }).host : undefined;
  if (destination === undefined) {
    throw new SecretNotAllowedError(
      `${tool.name} cannot take \${secret:${first}}: only an API call that names the host it sends to (such as http.request) may carry a secret; a secret is never written to a file or typed where a screenshot could show it`,
    );
  }
  const values = new Map<string, string>();
  for (const name of names) values.set(name, allowedValue(name, destination, ctx.secrets));
  for (const [name, value] of values) ctx.redactor.add(name, value);
  const resolved = walkStrings(args, (text) => text.replace(SECRET_REF, (_ref, name: string) => values.get(name)!));
  const after = tool.classify(resolved, { workspace: ctx.workspace }).host;
  if (after !== destination) {
    throw new SecretNotAllowedError(`\${secret:${first}} would change where ${tool.name} sends (${destination} → ${after ?? 'unknown'})`);
  }
  return resolved;
}

function allowedValue(name: string, destination: string, secrets: SecretSource | undefined): string {
  const hostname = destination.replace(/:\d+$/, '');
  const value = secrets?.value(name);
  if (value === undefined) {
    throw new SecretNotAllowedError(
      `no secret named "${name}" is stored; store it with: agent-desk secrets set ${name} --host ${hostname}`,
    );
  }
  const hosts = secrets!.hosts(name);
  if (!hosts.some((pattern) => hostMatches(pattern, destination))) {
    const bound = hosts.length > 0 ? `it is bound to ${hosts.join(', ')}` : 'it is bound to no host';
    throw new SecretNotAllowedError(
      `secret "${name}" may not be sent to ${destination} (${bound}); to allow it: agent-desk secrets set ${name} --host ${hostname}`,
    );
  }
  return value;
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const v of value) visitStrings(v, visit);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      visit(k);
      visitStrings(v, visit);
    }
  }
}

function walkStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => walkStrings(v, map));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[map(k)] = walkStrings(v, map);
    return out;
  }
  return value;
}
