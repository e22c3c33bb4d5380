import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { domainToASCII } from 'node:url';
import { AgentDeskError } from '../errors.js';
import { writeFileAtomicSync } from './atomicFile.js';

const FILE = 'secret-hosts.json';

/** The bindings file: which hosts each secret may be sent to. Metadata, not secret: no values here. */
interface HostsFile {
  version: 1;
  hosts: Record<string, string[]>;
}

/**
 * Which hosts a secret may be sent to, kept next to the secrets in `secret-hosts.json` (0600,
 * atomic writes). Independent of where the values live (encrypted file or OS storage), so every
 * secret store gets the same bindings. A secret without hosts is never substituted into a call.
 */
export class SecretHostBindings {
  private readonly file: string;

  constructor(private readonly home: string) {
    this.file = path.join(home, FILE);
  }

  /** The host patterns bound to `name` (none: the secret may not be used in tool arguments). */
  hostsOf(name: string): string[] {
    return this.load()[name] ?? [];
  }

  /** Every secret's hosts. */
  all(): Record<string, string[]> {
    return this.load();
  }

  /** Replaces the hosts of `name` (an empty list removes the binding). */
  set(name: string, hosts: readonly string[]): void {
    const all = this.load();
    const normalized = [...new Set(hosts.map(normalizeHostPattern))].sort();
    if (normalized.length === 0 && !Object.hasOwn(all, name)) return;
    if (normalized.length === 0) delete all[name];
    else all[name] = normalized;
    this.save(all);
  }

  delete(name: string): void {
    this.set(name, []);
  }

  private load(): Record<string, string[]> {
    if (!existsSync(this.file)) return {};
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as HostsFile;
      return { ...parsed.hosts };
    } catch (error) {
      throw new AgentDeskError('internal', `${this.file} is not readable (fix or delete it): ${(error as Error).message}`);
    }
  }

  private save(hosts: Record<string, string[]>): void {
    mkdirSync(this.home, { recursive: true });
    const file: HostsFile = { version: 1, hosts };
    writeFileAtomicSync(this.file, Buffer.from(`${JSON.stringify(file, null, 2)}\n`), { mode: 0o600 });
  }
}

/** `host` or `host:port`; IPv6 hosts keep their brackets. */
function splitHostPort(text: string): { host: string; port?: string } {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    const rest = text.slice(end + 1);
    return { host: text.slice(0, end + 1), ...(rest.startsWith(':') && { port: rest.slice(1) }) };
  }
  const colon = text.lastIndexOf(':');
  return colon === -1 ? { host: text } : { host: text.slice(0, colon), port: text.slice(colon + 1) };
}

/**
 * A host pattern as stored: lower case, international names in their ASCII (punycode) form —
 * the form URLs give their hosts in, so `bücher.example` matches `xn--bcher-kva.example`.
 */
export function normalizeHostPattern(pattern: string): string {
  const { host, port } = splitHostPort(pattern.trim().toLowerCase());
  const wildcard = host.startsWith('*.');
  const name = wildcard ? host.slice(2) : host;
  const ascii = name.startsWith('[') ? name : domainToASCII(name);
  if (ascii === '')
    throw new AgentDeskError('invalid_params', `"${pattern}" is not a host name (e.g. api.example.com, *.example.com:8443)`);
  return `${wildcard ? '*.' : ''}${ascii}${port === undefined ? '' : `:${port}`}`;
}

/**
 * Whether `destination` (`hostname:port`, as a call's classification names it) is one `pattern`
 * allows: the same host on any port, `host:port` on that port only, `*.example.com` any
 * subdomain (not example.com itself).
 */
export function hostMatches(pattern: string, destination: string): boolean {
  const p = splitHostPort(normalizeHostPattern(pattern));
  const d = splitHostPort(destination.toLowerCase());
  if (p.port !== undefined && p.port !== d.port) return false;
  if (p.host.startsWith('*.')) return d.host.endsWith(p.host.slice(1)) && d.host.length > p.host.length - 1;
  return p.host === d.host;
}
