import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';

const skip = missing('chromium');

describe.skipIf(skip)(`tasks show prints the route a step took${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cli: CliSandbox;
  let server: Server | undefined;
  afterEach(async () => {
    server?.close();
    await cli.cleanup();
  });

  it('a GET that the server drops for non-browsers falls down to the browser; tasks show says where it ran and why', async () => {
    cli = new CliSandbox();
    server = createServer((req, res) => {
      if (!String(req.headers['user-agent']).includes('Chrome')) return void req.socket.destroy();
      res.setHeader('content-type', 'text/html');
      res.end('<html><body><p>Mon-Fri 9-17</p></body></html>');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hours`;
    writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ policy: { networkAllow: ['127.0.0.1:*'] } }));
    const playbook = path.join(cli.home, 'hours.yaml');
    writeFileSync(
      playbook,
      `name: hours\nsteps:\n  - tool: http.request\n    args: { method: GET, url: "${url}" }\n  - tool: browser.extract_text\n    args: {}\n`,
    );

    const run = await cli.run(['run', playbook, '--json'], { timeoutMs: 90_000 });
    expect(run.code, explain(run)).toBe(0);
    const taskId = run.json<{ task: { id: string } }>().task.id;

    const shown = await cli.run(['tasks', 'show', taskId]);
    expect(shown.code, explain(shown)).toBe(0);
    const first = shown.stdout.split('\n').find((line) => line.startsWith('#1.'))!;
    expect(first).toContain('browser.navigate');
    expect(first).toMatch(
      /browser tier: fallback: http\.request failed with a retryable error .*browser\.navigate provides web\.read \(browser tier\)/,
    );
    expect(first).toMatch(/passed over: http\.request failed: GET http:\/\/127\.0\.0\.1:\d+\/hours failed/);
  });
});
