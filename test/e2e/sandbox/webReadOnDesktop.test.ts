import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';
import { desktopContainers, desktopImage } from '../../support/sandboxImage.js';

// Reading the web goes down the tiers: http.request, then the host browser, then the desktop's
// Chromium. With no Chromium on the host, a page that only answers browsers is read on the desktop.

const skip = missing('docker');

describe.skipIf(skip)(`web.read falls to the desktop when the host has no Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cli: CliSandbox;
  let server: Server | undefined;
  let image: string;
  beforeAll(async () => void (image = await desktopImage()), 600_000);
  afterEach(async () => {
    server?.close();
    await cli.cleanup();
  });

  it('a GET the server drops for non-browsers, no host Chromium: the desktop opens the page, and tasks show says why', async () => {
    cli = new CliSandbox();
    server = createServer((req, res) => {
      if (!String(req.headers['user-agent']).includes('Chrome')) return void req.socket.destroy();
      res.setHeader('content-type', 'text/html');
      res.end('<html><head><title>Opening hours</title></head><body><p>Mon-Fri 9-17</p></body></html>');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}/hours`;
    const config = { policy: { networkAllow: [`127.0.0.1:${port}`] }, sandbox: { image, egressAllow: [`127.0.0.1:${port}`] } };
    writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify(config));
    const playbook = path.join(cli.home, 'hours.yaml');
    writeFileSync(playbook, `name: hours\nsteps:\n  - tool: http.request\n    args: { method: GET, url: "${url}" }\n`);

    const env = { AGENT_DESK_CHROMIUM: path.join(cli.home, 'no-chromium-here') };
    const run = await cli.run(['run', playbook, '--json'], { timeoutMs: 180_000, env });
    expect(run.code, explain(run)).toBe(0);
    const report = run.json<{ task: { id: string }; steps: { tool: string }[] }>();
    expect(report.steps[0]?.tool).toBe('sandbox.browser_open');
    // What the desktop's Chromium read is the step's output (the page only answers browsers).
    const detail = await cli.run(['tasks', 'show', report.task.id, '--json'], { env });
    expect(detail.stdout).toContain('Opening hours');

    const shown = await cli.run(['tasks', 'show', report.task.id], { env });
    const first = shown.stdout.split('\n').find((line) => line.startsWith('#1.'))!;
    expect(first).toMatch(/gui tier: fallback: .*sandbox\.browser_open/);
    expect(first).toMatch(/passed over: .*http\.request failed/);
    expect(first).toMatch(/browser\.navigate unavailable/);
    expect(await desktopContainers(cli.home)).toEqual([]);
  });
});
