import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { HeldEffect } from '../../contract/index.js';
import { compileHostPatterns, hostAllowed, type HostPattern } from '../../runtime/policy/hostPattern.js';
import { isPaymentHost } from '../../runtime/policy/effects/riskWords.js';
import { heldAnswer, looksLikeNavigation, proxiedRequestEffect, tunnelEffect } from './egressRequests.js';
import { EgressSources, type EgressVerdict } from './egressSources.js';

/** One decision the proxy made, for the trace and tests. */
export interface EgressDecision {
  host: string;
  allowed: boolean;
  method: string;
  /** Set when the effect gate decided (a state-changing request or a payment tunnel). */
  effect?: EgressVerdict['action'];
  reason?: string;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The largest request body the gate reads before deciding (it must see the whole form). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A TLS record of type handshake opens every HTTPS tunnel; anything else inside one is plaintext. */
const TLS_HANDSHAKE = 0x16;
/** The most of a plaintext request head read inside a tunnel before deciding. */
const MAX_TUNNEL_HEAD = 16 * 1024;

/**
 * The allowlisting egress proxy the runtime runs for sandboxes on the egress network: HTTP
 * CONNECT (HTTPS), absolute-form HTTP requests and WebSocket upgrades to allowlisted
 * `host:port` globs pass (the scheme's default port filled in, so a pattern with a port means that
 * port only); anything else gets 403. Every redirect hop is a new request through the proxy, so
 * it is checked again. Containers have no other route out (the network is `--internal`).
 *
 * Past the allowlist, the effect gate: a state-changing plain-HTTP request (the browser tier's
 * classifier), a WebSocket and a tunnel to a payment provider are decided by the gate of the
 * task whose container sent them (`sources`, by source address) — held for the running agent
 * action's approval, refused outside any action, forwarded when approved or allowed by
 * `policy.allowWrites`. A held request is never sent; the page gets 204 (a navigation stays on
 * its page, so the approved re-run clicks the same thing) or 403.
 */
export class EgressProxy {
  private readonly allow: HostPattern[];
  private server: http.Server | undefined;
  /** Open tunnels and WebSockets: the HTTP server no longer tracks a socket it handed over. */
  private readonly tunnels = new Set<net.Socket>();
  private readonly upstreams = new Set<net.Socket>();
  readonly decisions: EgressDecision[] = [];

  constructor(
    allow: readonly string[],
    readonly sources: EgressSources = new EgressSources(),
  ) {
    this.allow = compileHostPatterns(allow, 'sandbox.egressAllow');
  }

  private allowed(host: string, method: string): boolean {
    const allowed = hostAllowed(this.allow, host);
    this.decisions.push({ host, allowed, method });
    return allowed;
  }

  private gate(source: string | undefined, host: string, effect: HeldEffect): EgressVerdict {
    const verdict = this.sources.decide(source, effect);
    this.decisions.push({
      host,
      allowed: verdict.action === 'forward',
      method: effect.method,
      effect: verdict.action,
      reason: verdict.reason,
    });
    return verdict;
  }

  /** Listens on `bindHost` (the egress network's gateway); resolves the port. */
  async start(bindHost: string, port = 0): Promise<number> {
    const server = http.createServer((req, res) => void this.forward(req, res));
    server.on('connect', (req, socket: net.Socket, head) => this.tunnel(req, this.tracked(socket), head));
    server.on('upgrade', (req, socket: net.Socket, head) => this.upgrade(req, this.tracked(socket), head));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, bindHost, () => resolve()));
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  /** A tunnel's upstream connection, reset when the proxy closes (a server may keep a half-closed socket open forever). */
  private upstream(port: number, host: string, onConnect: () => void): net.Socket {
    const socket = net.connect(port, host, onConnect);
    this.upstreams.add(socket);
    socket.once('close', () => this.upstreams.delete(socket));
    return socket;
  }

  private tracked(socket: net.Socket): net.Socket {
    this.tunnels.add(socket);
    socket.once('close', () => this.tunnels.delete(socket));
    return socket;
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
    const effect = tunnelEffect(target);
    const verdict = effect && this.gate(req.socket.remoteAddress, target, effect);
    if (verdict && verdict.action !== 'forward') {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Agent-Desk-Held: ${verdict.action}\r\n\r\n${verdict.reason}\n`);
      return;
    }
    const [hostname = '', port = '443'] = target.split(/:(?=\d+$)/);
    const upstream = this.upstream(Number(port), hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      void this.firstBytes(socket, head).then((first) => {
        const refusal = first && this.plaintextRefusal(req.socket.remoteAddress, target, first);
        if (first === undefined || refusal) {
          upstream.destroy();
          if (refusal) socket.end(refusal);
          else socket.destroy();
          return;
        }
        upstream.write(first);
        splice(socket, upstream);
      });
    });
    upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  }

  /**
   * What the client sends first inside a tunnel: a TLS handshake, or plaintext HTTP — Chromium
   * tunnels `ws://` through CONNECT too, so a WebSocket handshake can arrive here. Resolves once
   * a TLS record starts or a plaintext request head is complete (undefined when the client left).
   */
  private firstBytes(socket: net.Socket, head: Buffer): Promise<Buffer | undefined> {
    return new Promise((resolve) => {
      let seen = head;
      const done = (value: Buffer | undefined) => {
        socket.off('data', onData);
        socket.off('end', onClose);
        socket.off('close', onClose);
        socket.pause();
        resolve(value);
      };
      const complete = () => seen.length > 0 && (seen[0] === TLS_HANDSHAKE || seen.includes('\r\n\r\n') || seen.length > MAX_TUNNEL_HEAD);
      const onData = (chunk: Buffer) => {
        seen = Buffer.concat([seen, chunk]);
        if (complete()) done(seen);
      };
      const onClose = () => done(undefined);
      if (complete()) return resolve(seen);
      socket.on('data', onData);
      // The HTTP server's sockets are half-open: a client that left shows as 'end', not 'close'.
      socket.once('end', onClose);
      socket.once('close', onClose);
      socket.resume(); // the HTTP server hands a CONNECT's socket over paused
    });
  }

  /**
   * Plaintext inside a tunnel gets the plain-HTTP rules: a WebSocket handshake meets the effect
   * gate, a state-changing request is refused (browsers send those absolute-form, where the
   * gate reads them). Returns the refusal to send, or undefined to let the tunnel through.
   */
  private plaintextRefusal(source: string | undefined, target: string, first: Buffer): string | undefined {
    if (first[0] === TLS_HANDSHAKE) return undefined;
    const text = first.subarray(0, MAX_TUNNEL_HEAD).toString('latin1');
    const [requestLine = ''] = text.split('\r\n');
    const [method = '', path = '/'] = requestLine.split(' ');
    const upgrade = /\r\nupgrade:\s*websocket/i.test(text);
    if (!upgrade && READS.has(method.toUpperCase())) return undefined;
    const refuse = (reason: string, action: string) =>
      `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Agent-Desk-Held: ${action}\r\nConnection: close\r\n\r\n${reason}\n`;
    if (!upgrade) {
      const reason = `${method} inside a tunnel to ${target} is refused: plain HTTP must go through the proxy as an absolute-form request`;
      this.decisions.push({ host: target, allowed: false, method, effect: 'refuse', reason });
      return refuse(reason, 'refuse');
    }
    const url = safeUrl(`http://${target}${path.startsWith('/') ? path : '/'}`);
    if (!url) return refuse('not a valid WebSocket request', 'refuse');
    const verdict = this.gate(source, target, webSocketOpened(url));
    return verdict.action === 'forward' ? undefined : refuse(verdict.reason, verdict.action);
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('the egress proxy needs absolute-form requests\n');
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.protocol !== 'http:' || !this.allowed(hostWithPort(url), method)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${url.host} is not in the sandbox egress allowlist\n`);
      return;
    }
    const source = this.sources.at(req.socket.remoteAddress);
    const settled = source?.arrived() ?? (() => undefined);
    try {
      // The read path pays nothing more: a GET that is no navigation streams through as before.
      if (READS.has(method) && !looksLikeNavigation(req.headers) && !isPaymentHost(url.hostname)) return send(url, req, res);
      const body = await readBody(req);
      if (body === undefined) {
        res
          .writeHead(413, { 'content-type': 'text/plain' })
          .end(`request bodies over ${MAX_BODY_BYTES} bytes are refused by the egress gate\n`);
        return;
      }
      const effect = proxiedRequestEffect({ method, url, headers: req.headers, ...(body.length > 0 && { body: body.toString('utf8') }) });
      const verdict = effect && this.gate(req.socket.remoteAddress, hostWithPort(url), effect);
      if (!verdict || verdict.action === 'forward') return send(url, req, res, body);
      const status = verdict.action === 'hold' ? heldAnswer(req.headers).status : 403;
      res
        .writeHead(status, { 'content-type': 'text/plain', 'x-agent-desk-held': verdict.action })
        .end(status === 204 ? undefined : `${verdict.reason}\n`);
    } finally {
      settled();
    }
  }

  /**
   * A plain-HTTP WebSocket (absolute-form `GET` with `Upgrade`): the allowlist, then the effect
   * gate (its messages are invisible to the proxy, so opening one is the effect), then a raw tunnel.
   */
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
    const verdict = this.gate(req.socket.remoteAddress, hostWithPort(url), webSocketOpened(url));
    if (verdict.action !== 'forward') {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Agent-Desk-Held: ${verdict.action}\r\n\r\n${verdict.reason}\n`);
      return;
    }
    const target = url;
    const upstream = this.upstream(Number(target.port || 80), target.hostname, () => {
      const headers = Object.entries({ ...req.headers, host: target.host }).map(([k, v]) => `${k}: ${String(v)}`);
      upstream.write([`${req.method} ${target.pathname}${target.search} HTTP/1.1`, ...headers, '', ''].join('\r\n'));
      if (head.length) upstream.write(head);
      splice(socket, upstream);
    });
    upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  }

  /** Stops listening and drops open tunnels. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    // A sandbox that was killed never sends FIN: its tunnels and their upstreams end here.
    for (const socket of this.tunnels) socket.destroy();
    for (const socket of this.upstreams) socket.resetAndDestroy();
    this.tunnels.clear();
    this.upstreams.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Sends a request on upstream (the body already read, or streamed) and pipes the answer back. */
function send(url: URL, req: http.IncomingMessage, res: http.ServerResponse, body?: Buffer): void {
  const upstream = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end('upstream unreachable\n');
  });
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

/** The whole request body, or undefined past the limit. */
async function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Opening a WebSocket: a channel whose messages the proxy cannot read, so it is a `send` (a payment toward a payment host). */
function webSocketOpened(url: URL): HeldEffect {
  const payment = isPaymentHost(url.hostname);
  return {
    kind: 'websocket',
    method: 'WS',
    url: url.href.replace(/^http/, 'ws'),
    risk: payment ? 'payment' : 'send',
    reasons: [
      'a WebSocket opened through the sandbox proxy (its messages are not visible to the gate)',
      ...(payment ? [`${url.hostname} is a payment provider`] : []),
    ],
  };
}

/** Joins a client's socket and its upstream both ways; when the client's side goes, upstream goes. */
function splice(client: net.Socket, upstream: net.Socket): void {
  client.once('close', () => upstream.destroy());
  upstream.once('close', () => client.end());
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  upstream.pipe(client).pipe(upstream);
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** `hostname:port` with the scheme's default port, as the allowlist compares hosts. */
function hostWithPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}
