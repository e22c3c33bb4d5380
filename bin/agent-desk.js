#!/usr/bin/env node
// Thin launcher: the CLI is compiled by `npm run build` (run automatically by `npm install`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/electron/cli/index.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('agent-desk: not built yet. Run `npm run build` (or `npm install`) first.');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
