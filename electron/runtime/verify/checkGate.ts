import type { AcceptanceCheck, CheckResult } from '../../contract/index.js';
import { compileHostPatterns, hostAllowed, type HostPattern } from '../policy/hostPattern.js';
import { hostOfUrl } from '../policy/subject.js';
import type { CheckContext, UrlPermit } from './types.js';

/** What the engine hands a check runner: the check context plus the task's own allowed hosts. */
export interface CheckRunContext extends CheckContext {
  /** Hosts this task may reach besides `policy.networkAllow` (its playbook's local services). */
  networkAllow?: readonly string[];
}

/** Runs a task's acceptance checks. */
export type CheckRunnerFn = (checks: readonly AcceptanceCheck[], ctx: CheckRunContext) => Promise<CheckResult[]>;

/**
 * Wraps a check runner with the network gate: URL checks (`http_status`, `json_path` with a url)
 * are `external_http`, so they fetch only hosts in `policy.networkAllow` or the task's own
 * services — every redirect hop included. Anything else fails the check with the reason; a
 * check is never a way to reach a host the task's tools could not.
 */
export function gatedCheckRunner(inner: CheckRunnerFn, configAllow: readonly string[] | (() => readonly HostPattern[])): CheckRunnerFn {
  // A function reads the policy as it is now (it can change while the runtime runs).
  const fixed = typeof configAllow === 'function' ? undefined : compileHostPatterns(configAllow, 'policy.networkAllow');
  return (checks, ctx) => {
    const configured = fixed ?? (configAllow as () => readonly HostPattern[])();
    const taskHosts = compileHostPatterns(ctx.networkAllow ?? [], 'task.networkAllow');
    return inner(checks, { ...ctx, permitUrl: urlPermit([...configured, ...taskHosts]) });
  };
}

/** The permit for an allowlist: http(s) URLs to a listed host (and port) only. */
export function urlPermit(allowed: readonly HostPattern[]): UrlPermit {
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `${JSON.stringify(url)} is not a URL`;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol} URLs are not fetched by checks`;
    const host = hostOfUrl(parsed.href);
    if (host !== undefined && hostAllowed(allowed, host)) return undefined;
    return (
      `external_http to ${host ?? parsed.host} is outside the task's allowlist (policy.networkAllow and the playbook's ` +
      `own services); add the host to policy.networkAllow in config.json to let a check fetch it`
    );
  };
}
