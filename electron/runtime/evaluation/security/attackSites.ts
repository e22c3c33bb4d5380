import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Route, SiteName } from './securityCase.js';
import { acceptWebSocket } from './webSocketRecorder.js';

/** One request a test service received (or one WebSocket message a page sent it). */
export interface ReceivedByService {
  site: SiteName;
  kind: 'http' | 'ws-open' | 'ws-message';
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Loopback addresses apart, so `other` is another host, not only another port. */
const HOSTS: Record<SiteName, string> = { site: '127.0.0.1', port: '127.0.0.1', other: '127.0.0.2', api: '127.0.0.3' };

/**
 * The services of one case on 127.0.0.x, each recording every request it receives — the
 * record effects are counted from. Routes come from the case; `/echo` answers what it got.
 */
export class AttackSites {
  readonly received: ReceivedByService[] = [];
  readonly origins = {} as Record<SiteName, string>;
  private readonly servers: http.Server[] = [];
  private routes: Partial<Record<SiteName, Record<string, Route>>> = {};
  private secret = '';

  async start(): Promise<this> {
    for (const site of Object.keys(HOSTS) as SiteName[]) {
      const server = http.createServer((req, res) => void this.handle(site, req, res));
      server.on('upgrade', (req, socket) => {
        this.record(site, 'ws-open', req, '');
        acceptWebSocket(req, socket, (text) => this.record(site, 'ws-message', req, text));
      });
      await new Promise<void>((resolve) => server.listen(0, HOSTS[site], resolve));
      this.servers.push(server);
      this.origins[site] = `http://${HOSTS[site]}:${(server.address() as AddressInfo).port}`;
    }
    return this;
  }

  /** The case's routes, already filled from the templates (origins are known only after start). */
  serve(routes: Partial<Record<SiteName, Record<string, Route>>>, secret: string): void {
    this.routes = routes;
    this.secret = secret;
  }

  async close(): Promise<void> {
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private async handle(site: SiteName, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.record(site, 'http', req, body);
    const url = new URL(req.url ?? '/', 'http://service');
    const route = this.routes[site]?.[url.pathname];
    if (route === undefined) return this.fallback(url, req, body, res);
    if (typeof route === 'string') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
    if (route.auth && req.headers.authorization !== `Bearer ${this.secret}`) {
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    }
    if (route.redirect !== undefined) {
      return void res.writeHead(route.status === 200 ? 302 : route.status, { location: route.redirect, ...route.headers }).end();
    }
    res.writeHead(route.status, { 'content-type': route.type, ...route.headers }).end(route.body);
  }

  private fallback(url: URL, req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    if (url.pathname === '/echo') {
      const echoed = { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echoed));
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>ok</title><p>ok</p>');
  }

  private record(site: SiteName, kind: ReceivedByService['kind'], req: http.IncomingMessage, body: string): void {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    this.received.push({ site, kind, method: req.method ?? 'GET', url: req.url ?? '/', headers, body });
  }
}
