import path from 'node:path';

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

/** True when the subject is an absolute URL (`scheme://…`) rather than a path. */
export function isUrlSubject(subject: string): boolean {
  return URL_LIKE.test(subject);
}

/**
 * The forms a rule's glob is tried against; a rule matches when any form does.
 * Paths: POSIX-normalized without a leading `./`, so `./logs/a` or `logs//a` cannot slip past
 * `fs.delete(logs/**)`. URLs: scheme, host, path and query in WHATWG form (lower-case host, dot
 * segments resolved, no user info or fragment), once without and once with the default port,
 * since `http://h/` and `http://h:80/` are the same resource.
 */
export function subjectForms(subject: string): string[] {
  if (subject === '') return [];
  if (!isUrlSubject(subject)) {
    const normalized = normalizePath(subject);
    return normalized === '' ? [] : [normalized];
  }
  const url = parseUrl(subject);
  if (!url) return [subject];
  const rest = `${url.pathname}${url.search}`;
  const defaultPort = DEFAULT_PORTS[url.protocol];
  const forms = [`${url.protocol}//${url.host}${rest}`];
  if (url.port === '' && defaultPort) forms.push(`${url.protocol}//${url.hostname}:${defaultPort}${rest}`);
  return forms;
}

/** `hostname:port` of a URL subject (default port filled in), or undefined for paths. */
export function hostOfUrl(subject: string): string | undefined {
  if (!isUrlSubject(subject)) return undefined;
  const url = parseUrl(subject);
  if (!url || url.hostname === '') return undefined;
  const port = url.port || DEFAULT_PORTS[url.protocol];
  return port ? `${url.hostname}:${port}` : url.hostname;
}

function normalizePath(subject: string): string {
  const normalized = path.posix.normalize(subject.replaceAll('\\', '/'));
  return normalized === '.' || normalized === './' ? '' : normalized;
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
