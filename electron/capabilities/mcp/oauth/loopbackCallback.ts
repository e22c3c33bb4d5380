import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentDeskError } from '../../../runtime/errors.js';

/** Where the browser is sent back to: a loopback address, a port (0 = any free one) and a path. */
export interface LoopbackAddress {
  host: string;
  port: number;
  path: string;
}

const DEFAULT_ADDRESS: LoopbackAddress = { host: '127.0.0.1', port: 0, path: '/callback' };

/** The loopback address a redirect URI names (`localhost` is listened on as 127.0.0.1, as browsers resolve it first). */
export function loopbackAddressOf(redirectUri: string | undefined, fallbackPort = 0): LoopbackAddress {
  if (redirectUri === undefined) return { ...DEFAULT_ADDRESS, port: fallbackPort };
  const url = new URL(redirectUri);
  return { host: url.hostname, port: Number(url.port), path: url.pathname };
}

/**
 * The OAuth redirect target of a native app (RFC 8252 §7.3): an HTTP listener on the loopback
 * interface that takes exactly one authorization response — the one carrying the `state` of
 * the request Agent Desk made. A response with another state (a forged or stale link) is
 * refused and the wait goes on; an `error` response ends it with the server's reason.
 */
export class LoopbackCallback {
  private expectedState: string | undefined;
  private settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  private readonly result: Promise<string>;

  private constructor(
    private readonly server: Server,
    private readonly address: LoopbackAddress,
    private readonly hostName: string,
  ) {
    this.result = new Promise<string>((resolve, reject) => (this.settle = { resolve, reject }));
    this.result.catch(() => undefined); // awaited by waitForCode; an unawaited refusal must not crash the process
    server.on('request', (req, res) => this.answer(req, res));
  }

  /** Starts listening; a taken fixed port is a clear error naming it. */
  static async listen(address: LoopbackAddress): Promise<LoopbackCallback> {
    const server = createServer();
    const bindHost = address.host === 'localhost' ? '127.0.0.1' : address.host.replace(/^\[|\]$/g, '');
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new AgentDeskError(
            'unavailable',
            `cannot listen for the OAuth redirect on ${address.host}:${address.port}: ${error.code ?? error.message}` +
              (address.port !== 0 ? ' (another program holds the port of the configured redirectUri)' : ''),
          ),
        ),
      );
      server.listen(address.port, bindHost, resolve);
    });
    const port = (server.address() as AddressInfo).port;
    return new LoopbackCallback(server, { ...address, port }, address.host);
  }

  /** The redirect URI to register and to send in the authorization request. */
  get redirectUrl(): string {
    return `http://${this.hostName}:${this.address.port}${this.address.path}`;
  }

  /** The `state` the coming response must carry. */
  expect(state: string): void {
    this.expectedState = state;
  }

  /** The authorization code, once the browser comes back (or the server's refusal, or the timeout). */
  async waitForCode(timeoutMs: number): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AgentDeskError('unavailable', `no authorization arrived at ${this.redirectUrl} within ${Math.round(timeoutMs / 1000)} s`),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.result, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.settle?.reject(new AgentDeskError('bad_state', 'the OAuth redirect listener was closed'));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.redirectUrl);
    if (req.method !== 'GET' || url.pathname !== this.address.path) return reply(res, 404, 'Not found.');
    const state = url.searchParams.get('state');
    if (this.expectedState === undefined || state !== this.expectedState) {
      return reply(res, 400, 'This authorization response was not asked for by Agent Desk (its state does not match); it was ignored.');
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      const description = url.searchParams.get('error_description');
      reply(res, 400, `Authorization was refused: ${error}${description ? ` (${description})` : ''}. You can close this tab.`);
      return this.settle?.reject(
        new AgentDeskError('forbidden', `the authorization server refused: ${error}${description ? ` (${description})` : ''}`),
      );
    }
    const code = url.searchParams.get('code');
    if (!code) return reply(res, 400, 'The authorization response carries no code.');
    this.expectedState = undefined; // one response only: a replay of this link is refused
    reply(res, 200, 'Agent Desk is authorized. You can close this tab.');
    this.settle?.resolve(code);
  }
}

function reply(res: ServerResponse, status: number, text: string): void {
  const html = `<!doctype html><meta charset="utf-8"><title>Agent Desk</title><p>${text.replace(/[<>&]/g, '')}</p>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}
