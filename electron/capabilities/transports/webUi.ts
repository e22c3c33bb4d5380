import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` puts the renderer (dist/renderer, next to dist/electron). */
export const RENDERER_DIST = fileURLToPath(new URL('../../../renderer/', import.meta.url));

/**
 * The renderer's Content-Security-Policy, in the browser and in the Electron window alike: only
 * the page's own scripts and styles, RPC back to the same origin (CSP3 `'self'` covers ws: on
 * the same host), data: images for screenshots, no plugins, frames or forms.
 */
export const WEB_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

const SECURITY_HEADERS = {
  'content-security-policy': WEB_UI_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** The file under `root` a URL path names, or undefined when it escapes root or does not exist. */
export function resolveStatic(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (file !== path.resolve(root) && !file.startsWith(path.resolve(root) + path.sep)) return undefined;
  const target = file === path.resolve(root) || decoded.endsWith('/') ? path.join(file, 'index.html') : file;
  return existsSync(target) && statSync(target).isFile() ? target : undefined;
}

/** Serves the built renderer read-only with a strict CSP; `/healthz` stays with the gateway. */
export function webUiHandler(root: string = RENDERER_DIST) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed');
      return;
    }
    const urlPath = (req.url ?? '/').split(/[?#]/)[0] ?? '/';
    if (!existsSync(path.join(root, 'index.html'))) {
      res
        .writeHead(503, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' })
        .end('The web UI is not built: run `npm run build`.');
      return;
    }
    const file = resolveStatic(root, urlPath);
    if (!file) {
      res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    // Hashed assets never change; index.html must be re-read so a new build takes effect.
    const cache = file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-store';
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': cache });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  };
}
