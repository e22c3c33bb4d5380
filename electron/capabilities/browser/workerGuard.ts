// WebSockets a Web Worker opens are invisible to the page's WebSocket routing, so the task
// browser runs every worker with WebSocket taken away: a blob:/data: worker behind a wrapper
// script, a worker loaded over HTTP with the guard put in front of its script by the route (its
// URL, and so its relative URLs, stay as they were).

/** The query parameter that marks a worker script request, so the route can prepend the guard. */
export const WORKER_MARK = '__agent_desk_worker';

// Plain JS (not a compiled function's text): it runs in pages and workers as written.
const INSTALL = `function installGuard(scope, mark, inWorker) {
  if (inWorker) {
    const blocked = function WebSocket() { throw new DOMException('WebSockets from workers are blocked in the task browser', 'SecurityError'); };
    Object.defineProperty(scope, 'WebSocket', { value: blocked, writable: false, configurable: false });
  }
  const prefix = '(' + installGuard.toString() + ')(self, ' + JSON.stringify(mark) + ', true);\\n';
  for (const name of ['Worker', 'SharedWorker']) {
    const Original = scope[name];
    if (typeof Original !== 'function') continue;
    const Wrapped = function (url, options) {
      const href = new URL(String(url), scope.location.href).href;
      if (/^https?:/.test(href)) {
        const marked = new URL(href);
        marked.searchParams.set(mark, '1');
        return new Original(marked.href, options);
      }
      const load = options && options.type === 'module' ? 'await import(' + JSON.stringify(href) + ');' : 'importScripts(' + JSON.stringify(href) + ');';
      return new Original(URL.createObjectURL(new Blob([prefix + load], { type: 'text/javascript' })), options);
    };
    Object.defineProperty(scope, name, { value: Wrapped, writable: false, configurable: false });
  }
}`;

/** The page's init script: workers it creates start with the guard. */
export const PAGE_WORKER_SCRIPT = `(${INSTALL})(self, ${JSON.stringify(WORKER_MARK)}, false);`;

/** What the route puts in front of a marked worker script. */
export const WORKER_SCRIPT_PREFIX = `(${INSTALL})(self, ${JSON.stringify(WORKER_MARK)}, true);\n`;

/** The worker script's own URL when `url` carries the mark, else undefined. */
export function markedWorkerScript(url: URL): string | undefined {
  if (!url.searchParams.has(WORKER_MARK)) return undefined;
  const original = new URL(url.href);
  original.searchParams.delete(WORKER_MARK);
  return original.href;
}
