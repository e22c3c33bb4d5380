import type { Issue } from '../../../contract/index.js';
import { AgentDeskError, describeIssues } from '../../errors.js';
import { hostMatches, tryParseHostPattern, type HostPattern } from '../hostPattern.js';

/** A compiled `policy.allowWrites` entry: a scheme and a host glob (`http://127.0.0.1:*`). */
export interface WriteOrigin {
  text: string;
  scheme: string;
  host: HostPattern;
}

/** Compiles `policy.allowWrites`; throws `invalid_params` naming every bad entry. */
export function compileWriteOrigins(entries: readonly string[], at = 'policy.allowWrites'): WriteOrigin[] {
  const issues: Issue[] = [];
  const compiled: WriteOrigin[] = [];
  entries.forEach((text, i) => {
    const match = /^(https?):\/\/([^/]+)\/?$/i.exec(text.trim());
    const host = match && tryParseHostPattern(match[2]!);
    if (!match || !host || 'problem' in host) {
      const why = host && 'problem' in host ? host.problem : 'write an origin such as "http://127.0.0.1:*" or "https://*.example.com"';
      issues.push({ path: `${at}[${i}]`, message: `"${text}" is not an origin: ${why}` });
    } else compiled.push({ text, scheme: `${match[1]!.toLowerCase()}:`, host });
  });
  if (issues.length > 0) throw new AgentDeskError('invalid_params', `Invalid write origins:\n${describeIssues(issues)}`, { issues });
  return compiled;
}

/** True when the URL's origin is one whose writes the config allows (a pattern without port: any port). */
export function writesAllowed(origins: readonly WriteOrigin[], url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const scheme = parsed.protocol === 'wss:' ? 'https:' : parsed.protocol === 'ws:' ? 'http:' : parsed.protocol;
  const port = parsed.port || (scheme === 'https:' ? '443' : '80');
  return origins.some((o) => o.scheme === scheme && hostMatches(o.host, `${parsed.hostname}:${port}`));
}
