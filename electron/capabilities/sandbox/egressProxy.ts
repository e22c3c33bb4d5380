import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { compileHostPatterns, hostAllowed, type HostPattern } from '../../runtime/policy/hostPattern.js';

/** One decision the proxy made, for the trace and tests. */
export interface EgressDecision {
  host: string;
  allowed: boolean;
  method: string;
}

/**
 * The allowlisting egress proxy the runtime runs for sandboxes on the egress network: HTTP
 * CONNECT (HTTPS), absolute-form HTTP requests and WebSocket upgrades to allowlisted
 * `host:port` globs pass (the scheme's default port filled in, so a pattern with a port means that
 * port only); anything else gets 403. Every redirect hop is a new request through the proxy, so
 * it is checked again. Containers have no other route out (the network is `--internal`).
 */
export class EgressProxy {
  private readonly allow: HostPattern[];
  private server: http.Server | undefined;
  readonly decisions: EgressDecision[] = [];

  constructor(allow: readonly string[]) {
    this.allow = compileHostPatterns(allow, 'sandbox.egressAllow');
  }

  private allowed(host: string, method: string): boolean {
    const allowed = hostAllowed(this.allow, host);
    this.decisions.push({ host, allowed, method });
    return allowed;
  }

  /** Listens on `bindHost` (the egress network's gateway); resolves the port. */
  async start(bindHost: string, port = 0): Promise<number> {
    const server = http.createServer((req, res) => this.forward(req, res));
    server.on('connect', (req, socket: net.Socket, head) => this.tunnel(req, socket, head));
    server.on('upgrade', (req, socket: net.Socket, head) => this.upgrade(req, socket, head));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, bindHost, () => resolve()));
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  private tunnel(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void {
    const raw = req.url ?? '';
    // CONNECT names host:port; one without a port means HTTPS's.
    const target = /:\d+$/.test(raw) ? raw : `${raw}:443`;
    socket.on('error', () => socket.destroy());
    if (!this.allowed(target, 'CONNECT')) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\n${target} is not in the sandbox egress allowlist\n`);
      return;
    }
    const [hostname = '', port = '443'] = target.split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('the egress proxy needs absolute-form requests\n');
      return;
    }
    if (url.protocol !== 'http:' || !this.allowed(hostWithPort(url), req.method ?? 'GET')) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${url.host} is not in the sandbox egress allowlist\n`);
      return;
    }
    const upstream = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end('upstream unreachable\n'));
    req.pipe(upstream);
  }

  /** A plain-HTTP WebSocket (absolute-form `GET` with `Upgrade`): the allowlist, then a raw tunnel. */
  private upgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? '');
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== 'http:' || !this.allowed(hostWithPort(url), 'UPGRADE')) {
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\n${url?.host ?? 'that target'} is not in the sandbox egress allowlist\n`,
      );
      return;
    }
    const target = url;
    const upstream = net.connect(Number(target.port || 80), target.hostname, () => {
      const headers = Object.entries({ ...req.headers, host: target.host }).map(([k, v]) => `${k}: ${String(v)}`);
      upstream.write([`${req.method} ${target.pathname}${target.search} HTTP/1.1`, ...headers, '', ''].join('\r\n'));
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  }

  /** Stops listening and drops open tunnels. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** `hostname:port` with the scheme's default port, as the allowlist compares hosts. */
function hostWithPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}
