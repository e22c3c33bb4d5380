import type { Issue } from '../../contract/index.js';
import { AgentDeskError, describeIssues } from '../errors.js';
import { wildcardToRegExp } from './wildcard.js';

/** A compiled host glob such as `*.example.com` or `127.0.0.1:*`. */
export interface HostPattern {
  /** The text as configured. */
  text: string;
  hostname: RegExp;
  /** Absent: any port matches. */
  port?: RegExp;
}

/** Why a host pattern is invalid, in words a config author can act on. */
export interface HostPatternProblem {
  problem: string;
}

interface HostParts {
  hostname: string;
  port?: string;
}

const HOSTNAME_GLOB = /^(\[[0-9a-f:.*]+\]|[a-z0-9_.*-]+)$/;
const PORT_GLOB = /^[0-9*]+$/;

/** Compiles one host glob (hostname glob, optional `:port` glob), or says what is wrong. */
export function tryParseHostPattern(text: string): HostPattern | HostPatternProblem {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return { problem: 'empty host; write a host such as "api.example.com" or "*.example.com"' };
  if (trimmed.includes('/')) {
    return { problem: `"${text}" is not a host; write the host alone, e.g. "api.example.com", with no scheme or path` };
  }
  const parts = splitHostPort(trimmed);
  if ('problem' in parts) return parts;
  if (!HOSTNAME_GLOB.test(parts.hostname)) {
    return { problem: `"${parts.hostname}" is not a host glob; use letters, digits, ".", "-" and "*"` };
  }
  if (parts.port !== undefined && !PORT_GLOB.test(parts.port)) {
    return { problem: `port "${parts.port}" must be digits or "*"` };
  }
  return {
    text,
    hostname: wildcardToRegExp(stripTrailingDot(parts.hostname)),
    ...(parts.port === undefined ? {} : { port: wildcardToRegExp(parts.port) }),
  };
}

/** Compiles a host allowlist, reporting every bad entry at once with its path (`networkAllow[2]`). */
export function compileHostPatterns(patterns: readonly string[], at = 'networkAllow'): HostPattern[] {
  const { compiled, issues } = collectHostPatterns(patterns, at);
  if (issues.length > 0) throw new AgentDeskError('invalid_params', `Invalid host patterns:\n${describeIssues(issues)}`, { issues });
  return compiled;
}

/** Like {@link compileHostPatterns} but returns the issues instead of throwing. */
export function collectHostPatterns(patterns: readonly string[], at: string): { compiled: HostPattern[]; issues: Issue[] } {
  const compiled: HostPattern[] = [];
  const issues: Issue[] = [];
  patterns.forEach((text, i) => {
    const parsed = tryParseHostPattern(text);
    if ('problem' in parsed) issues.push({ path: `${at}[${i}]`, message: parsed.problem });
    else compiled.push(parsed);
  });
  return { compiled, issues };
}

/**
 * True when `host` (`hostname` or `hostname:port`, IPv6 in brackets) matches the pattern.
 * A pattern without a port matches any port; one with a port never matches a host without one.
 */
export function hostMatches(pattern: HostPattern, host: string): boolean {
  const parts = splitHostPort(host.trim().toLowerCase());
  if ('problem' in parts) return false;
  if (!pattern.hostname.test(stripTrailingDot(parts.hostname))) return false;
  if (pattern.port === undefined) return true;
  return parts.port !== undefined && pattern.port.test(parts.port);
}

/** True when any pattern matches `host`. */
export function hostAllowed(patterns: readonly HostPattern[], host: string): boolean {
  return patterns.some((p) => hostMatches(p, host));
}

function splitHostPort(text: string): HostParts | HostPatternProblem {
  if (text.startsWith('[')) return splitBracketed(text);
  const parts = text.split(':');
  if (parts.length > 2) return { problem: `wrap IPv6 addresses in brackets, e.g. "[::1]:8080", not "${text}"` };
  const [hostname = '', port] = parts;
  if (port === '') return { problem: `empty port after ":" in "${text}"` };
  return port === undefined ? { hostname } : { hostname, port };
}

function splitBracketed(text: string): HostParts | HostPatternProblem {
  const end = text.indexOf(']');
  if (end === -1) return { problem: `IPv6 address "${text}" has no closing "]"` };
  const hostname = text.slice(0, end + 1);
  const rest = text.slice(end + 1);
  if (rest === '') return { hostname };
  if (!rest.startsWith(':') || rest === ':') return { problem: `expected ":port" after "${hostname}"` };
  return { hostname, port: rest.slice(1) };
}

// `example.com.` is the same host as `example.com`; a trailing dot must not dodge a rule.
function stripTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}
