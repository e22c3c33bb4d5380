import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost } from '../../../../electron/capabilities/browser/browserHost.js';
import { missing } from '../../../support/requirements.js';

const skip = missing('chromium');
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>profile</title><p>hi</p>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Page-side code as strings: the test project has no DOM types.
const SIGN_IN = "localStorage.setItem('signed-in', 'ada')";
const SIGNED_IN = "localStorage.getItem('signed-in')";
const hostOn = (profileDir: string) => new BrowserHost({ networkAllow: [new URL(origin).host], profileDir });

describe.skipIf(skip)(`a configured browser profile in real Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('keeps storage across tasks and across a restart of the host, while every task still has the allowlist', async () => {
    const profileDir = mkdtempSync(path.join(os.tmpdir(), 'ad-profile-'));
    const first = hostOn(profileDir);
    const a = await first.session('/ws/a');
    await a.page.goto(`${origin}/`);
    await a.page.evaluate(SIGN_IN);
    await first.closeSession('/ws/a');
    expect(a.page.isClosed()).toBe(true);

    const b = await first.session('/ws/b');
    await b.page.goto(`${origin}/`);
    expect(await b.page.evaluate(SIGNED_IN)).toBe('ada');
    await expect(b.page.goto('http://example.invalid/')).rejects.toThrow();
    expect(b.blocked.map((r) => r.host)).toContain('example.invalid:80');
    await first.close();

    const second = hostOn(profileDir);
    const c = await second.session('/ws/c');
    await c.page.goto(`${origin}/`);
    expect(await c.page.evaluate(SIGNED_IN)).toBe('ada');
    await second.close();
  });

  it('without a profile, each task gets a fresh context that shares nothing', async () => {
    const host = new BrowserHost({ networkAllow: [new URL(origin).host] });
    const a = await host.session('/ws/a');
    await a.page.goto(`${origin}/`);
    await a.page.evaluate(SIGN_IN);
    const b = await host.session('/ws/b');
    await b.page.goto(`${origin}/`);
    expect(await b.page.evaluate(SIGNED_IN)).toBeNull();
    await host.close();
  });
});
