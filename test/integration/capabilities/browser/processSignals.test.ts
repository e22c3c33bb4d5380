import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost } from '../../../../electron/capabilities/browser/browserHost.js';
import { PageStates } from '../../../../electron/capabilities/browser/pageState.js';
import { missing } from '../../../support/requirements.js';

// `serve` stops its runtime itself on a signal, saving a waiting task's page first. Playwright's
// own handlers would close Chromium the moment the signal arrives, while that save is running:
// the next process then resumed on a blank page (or one without what the agent typed).

const skip = missing('chromium');
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>form</title><input name="address">'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.skipIf(skip)(`a host browser in a process that owns its signals${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('keeps Chromium open through SIGINT, SIGTERM and SIGHUP, so the waiting page is still saved with what was typed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ad-pages-'));
    const host = new BrowserHost({ networkAllow: [new URL(origin).host], pageStates: new PageStates(dir), processOwnsSignals: true });
    const before = new Map(SIGNALS.map((s) => [s, process.listeners(s)]));
    const session = await host.session('/ws/order');
    await session.page.goto(`${origin}/`);
    await session.page.fill('input[name=address]', '12 Quay Street');

    // A signal now runs only what the process had before the launch: nothing closes Chromium behind its back.
    for (const signal of SIGNALS) {
      const added = process.listeners(signal).filter((l) => !before.get(signal)!.includes(l));
      expect(
        added.map((l) => l.name),
        `${signal} handlers the launch added`,
      ).toEqual([]);
    }
    host.savePage('/ws/order');
    await host.savesDone();

    const [file] = readdirSync(dir);
    expect(file, 'a saved page').toBeDefined();
    const saved = JSON.parse(readFileSync(path.join(dir, file!), 'utf8')) as { url: string; fields: { value?: string }[] };
    expect(saved.url).toBe(`${origin}/`);
    expect(saved.fields.map((f) => f.value)).toEqual(['12 Quay Street']);
    expect(session.page.isClosed()).toBe(false);
    await host.close();
  });
});
