import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the server answers: a JSON value, or a function of the request. */
export type Answer = ((req: RecordedRequest) => unknown) | Record<string, unknown> | unknown[];

/**
 * A real HTTP server on 127.0.0.1 that records every request it receives (method, URL, headers,
 * body) and answers JSON (or a fixed HTML page): what a test needs to prove what did, and did not, leave the runtime.
 */
export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;

  /** `pages` maps a path to an HTML page served there; every other path answers `answer` as JSON. */
  constructor(
    private readonly answer: Answer = { ok: true },
    private readonly pages: Record<string, string> = {},
  ) {}

  /** Starts listening; resolves to the base URL `http://127.0.0.1:<port>`. */
  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '/', headers: req.headers, body };
      this.requests.push(recorded);
      const page = this.pages[recorded.url];
      if (page !== undefined) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      const value = typeof this.answer === 'function' ? this.answer(recorded) : this.answer;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.server!.address() as { port: number }).port;
  }

  /** Everything received, as one string to search. */
  everything(): string {
    return JSON.stringify(this.requests);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
