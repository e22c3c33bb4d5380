// A small local inventory API used by examples/playbooks/inventory-report.yaml.
// Contract for playbook services: listen on 127.0.0.1:$PORT and exit when stdin closes.
import { createServer } from 'node:http';

const items = [
  { sku: 'SKU-1001', name: 'USB-C cable', stock: 42, reorderAt: 10 },
  { sku: 'SKU-1002', name: 'Laptop stand', stock: 3, reorderAt: 5 },
  { sku: 'SKU-1003', name: 'Webcam', stock: 0, reorderAt: 2 },
  { sku: 'SKU-1004', name: '机械键盘 (mechanical keyboard)', stock: 17, reorderAt: 4 },
  { sku: 'SKU-1005', name: 'Monitor arm', stock: 8, reorderAt: 8 },
];

const csv = () =>
  ['sku,name,stock,reorder', ...items.map((i) => `${i.sku},"${i.name}",${i.stock},${i.stock <= i.reorderAt ? 'yes' : 'no'}`)].join('\n') +
  '\n';

const routes = {
  '/health': () => [200, 'application/json', JSON.stringify({ ok: true })],
  '/items': () => [200, 'application/json', JSON.stringify({ items })],
  '/report.csv': () => [200, 'text/csv; charset=utf-8', csv()],
  '/summary': () => [
    200,
    'application/json',
    JSON.stringify({ items: items.length, toReorder: items.filter((i) => i.stock <= i.reorderAt).map((i) => i.sku) }),
  ],
};

const server = createServer((req, res) => {
  const route = routes[new URL(req.url, 'http://x').pathname];
  const [status, type, body] = route ? route() : [404, 'application/json', JSON.stringify({ error: 'not found' })];
  res.writeHead(status, { 'content-type': type }).end(body);
});
server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? '127.0.0.1');
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
