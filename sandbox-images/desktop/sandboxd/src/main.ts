import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import {
  SandboxdMethods,
  SandboxdRequestSchema,
  type SandboxdMethod,
  type SandboxdResponse,
} from '../../../../electron/contract/sandboxProtocol.js';
import { readTree } from './a11y.js';
import { browserOpen, browserState, browserTargets, closeBrowser, openUrl } from './browser.js';
import { capture, screenSize, waitStable } from './capture.js';
import { runCommand } from './exec.js';
import { SandboxdFailure } from './failure.js';
import { readHomeFile, statHomeFile, writeHomeFile } from './files.js';
import { observe } from './observe.js';
import { readText } from './ocr.js';
import { click, drag, moveTo, position, press, scroll, typeText } from './input.js';

// stdout carries protocol lines only: anything a library prints goes to stderr.
const out = process.stdout;
console.log = console.info = console.warn = console.error;

const startedAt = Date.now();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (params: any) => Promise<unknown>;

const handlers: Record<SandboxdMethod, Handler> = {
  health: async () => ({
    ok: existsSync('/tmp/desktop-ready'),
    display: process.env.DISPLAY ?? '',
    screen: await screenSize(),
    node: process.version,
    uptimeMs: Date.now() - startedAt,
    browser: browserOpen(),
  }),
  'screen.capture': capture,
  'screen.waitStable': waitStable,
  'mouse.move': moveTo,
  'mouse.click': click,
  'mouse.drag': drag,
  'mouse.scroll': scroll,
  'mouse.position': position,
  'keyboard.press': (p: { keys: string[] }) => press(p.keys),
  'keyboard.type': (p: { text: string }) => typeText(p.text),
  'browser.open': (p: { url: string }) => openUrl(p.url),
  'browser.state': browserState,
  'browser.close': closeBrowser,
  'browser.targets': browserTargets,
  'a11y.tree': readTree,
  'ocr.read': readText,
  'desktop.observe': observe,
  'exec.run': runCommand,
  'files.read': readHomeFile,
  'files.write': writeHomeFile,
  'files.stat': statHomeFile,
};

async function answer(line: string): Promise<SandboxdResponse | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined; // not a request: nothing to answer to
  }
  const request = SandboxdRequestSchema.safeParse(raw);
  if (!request.success) return undefined;
  const { id, method } = request.data;
  const spec = (SandboxdMethods as Record<string, (typeof SandboxdMethods)[SandboxdMethod]>)[method];
  if (!spec) return { id, error: { code: 'method_not_found', message: `no method ${method}` } };
  const params = spec.params.safeParse(request.data.params ?? {});
  if (!params.success) return { id, error: { code: 'invalid_params', message: params.error.message } };
  try {
    return { id, result: await handlers[method as SandboxdMethod](params.data) };
  } catch (error) {
    const code = error instanceof SandboxdFailure ? error.code : 'failed';
    return { id, error: { code, message: error instanceof Error ? error.message : String(error) } };
  }
}

/** Serves one connection (stdio or a socket): requests run concurrently, answers carry their id. */
function serve(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): void {
  createInterface({ input, crlfDelay: Infinity }).on('line', (line) => {
    void answer(line).then((response) => {
      if (response && output.writable) output.write(JSON.stringify(response) + '\n');
    });
  });
}

const listenAt = process.argv.indexOf('--listen');
if (listenAt > 0) {
  // Server mode (started with the desktop): every `docker exec … socat` is one session.
  const socketPath = process.argv[listenAt + 1] ?? '/tmp/sandboxd.sock';
  rmSync(socketPath, { force: true });
  createServer((socket) => {
    socket.on('error', () => socket.destroy());
    serve(socket, socket);
  }).listen(socketPath);
} else {
  serve(process.stdin, out);
  process.stdin.on('end', () => void closeBrowser().finally(() => process.exit(0)));
}
