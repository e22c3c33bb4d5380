// A local "team chat" outbox used by examples/playbooks/send-status-update.yaml.
// Messages persist in $AGENT_DESK_WORKSPACE/outbox.json, so a restarted service keeps them,
// and an Idempotency-Key header makes a repeated POST return the first message instead of a copy.
// Contract for playbook services: listen on 127.0.0.1:$PORT and exit when stdin closes.
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const file = path.join(process.env.AGENT_DESK_WORKSPACE ?? process.cwd(), 'outbox.json');
const load = () => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { messages: [] });
const save = (state) => writeFileSync(file, JSON.stringify(state, null, 2));

async function readBody(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

const server = createServer(async (req, res) => {
  const send = (status, value) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const { pathname } = new URL(req.url, 'http://x');
  if (pathname === '/health') return send(200, { ok: true });
  if (pathname === '/status') return send(200, { service: 'checkout', status: 'green', openIncidents: 0, p95LatencyMs: 182 });
  if (pathname === '/messages' && req.method === 'GET') {
    const { messages } = load();
    return send(200, { count: messages.length, messages });
  }
  if (pathname === '/messages' && req.method === 'POST') {
    const state = load();
    const key = req.headers['idempotency-key'];
    const earlier = key && state.messages.find((m) => m.idempotencyKey === key);
    if (earlier) return send(200, earlier);
    const body = await readBody(req);
    const message = { id: state.messages.length + 1, idempotencyKey: key ?? null, ...body };
    state.messages.push(message);
    save(state);
    return send(201, message);
  }
  send(404, { error: 'not found' });
});
server.listen(Number(process.env.PORT ?? 8081), process.env.HOST ?? '127.0.0.1');
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
