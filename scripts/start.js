#!/usr/bin/env node
// `npm start`: the Electron app when its binary is installed, otherwise the headless gateway.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    // The electron package exports the binary's path, and throws when the binary was not downloaded.
    const binary = require('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const mainEntry = `${root}dist/electron/main/index.js`;
const [command, args] =
  binary && existsSync(mainEntry) ? [binary, [root]] : [process.execPath, [`${root}bin/agent-desk.js`, 'serve', ...process.argv.slice(2)]];
if (command === process.execPath) console.log('Electron is not installed here: starting the headless gateway.');
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
