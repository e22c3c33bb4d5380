import { createServer, type Server } from 'node:http';

/** One side effect the server applied. */
export interface Effect {
  name: string;
  id: string;
  key: string | null;
}

/**
 * A real HTTP API with side effects, for exactly-once tests: POST applies an effect unless its
 * Idempotency-Key was seen (then it answers the first result again); PUT sets a named resource
 * (idempotent by HTTP semantics). `onRequest` runs before the effect is answered, so a test can
 * kill the caller while the request is in flight.
 */
export class EffectsServer {
  readonly effects: Effect[] = [];
  readonly requests: string[] = [];
  /** Requests answered from an earlier effect (a retry that the idempotency key made harmless). */
  replays = 0;
  onRequest: (count: number) => void = () => undefined;
  private server: Server | undefined;
  private readonly byKey = new Map<string, Effect>();
  private readonly puts = new Map<string, Effect>();

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const url = new URL(req.url ?? '/', 'http://x');
      this.requests.push(`${req.method} ${url.pathname}`);
      this.onRequest(this.requests.length);
      const send = (status: number, value: unknown) => {
        // A small delay widens the window in which the caller can die with the effect applied.
        setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value)), 15);
      };
      if (req.method === 'GET' && url.pathname === '/effects') {
        const byName: Record<string, number> = {};
        for (const e of this.effects) byName[e.name] = (byName[e.name] ?? 0) + 1;
        return send(200, { total: this.effects.length, byName });
      }
      const name = url.pathname.replace('/effects/', '');
      if (req.method === 'PUT') return send(200, this.put(name));
      if (req.method === 'POST') return send(200, this.post(name, req.headers['idempotency-key'] as string | undefined));
      send(404, { error: 'not found' });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  private post(name: string, key: string | undefined): { effect: string } {
    const earlier = key ? this.byKey.get(key) : undefined;
    if (earlier) return (this.replays++, { effect: earlier.id });
    const effect = this.apply(name, key ?? null);
    if (key) this.byKey.set(key, effect);
    return { effect: effect.id };
  }

  private put(name: string): { effect: string } {
    const earlier = this.puts.get(name);
    if (earlier) return (this.replays++, { effect: earlier.id });
    const effect = this.apply(name, null);
    this.puts.set(name, effect);
    return { effect: effect.id };
  }

  private apply(name: string, key: string | null): Effect {
    const n = this.effects.filter((e) => e.name === name).length + 1;
    const effect = { name, id: `${name}-${n}`, key };
    this.effects.push(effect);
    return effect;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
