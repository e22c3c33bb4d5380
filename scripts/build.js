#!/usr/bin/env node
// `npm run build` (also npm's `prepare` and, with `--tests`, `pretest`): compile the runtime and
// CLI, type-check and bundle the renderer, bundle the preload (and type-check the tests). Each
// bundle is skipped when its inputs' content is what built the output there now (a stamp beside
// it), so `npm ci` then `npm test` builds once. Each step prints its time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** The content hash of every file under `paths` (folders walked, node_modules left out), with their names. */
function inputsHash(paths) {
  const hash = createHash('sha256');
  const visit = (p) => {
    const full = path.join(root, p);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) if (name !== 'node_modules') visit(path.join(p, name));
      return;
    }
    hash.update(p).update('\0').update(readFileSync(full)).update('\0');
  };
  paths.forEach(visit);
  return hash.digest('hex');
}

function run(label, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`build: ${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Runs `steps` unless `stampFile` holds the hash of `inputs` (and `output` exists); then writes the stamp. */
function bundle(label, { inputs, output, stampFile, steps }) {
  const hash = inputsHash(inputs);
  const stamp = path.join(root, stampFile);
  if (existsSync(path.join(root, output)) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
    console.log(`build: ${label} up to date`);
    return;
  }
  for (const [name, command, args] of steps) run(name, command, args);
  writeFileSync(stamp, hash);
}

const shared = ['electron/contract', 'package-lock.json', 'tsconfig.base.json'];
const args = process.argv.slice(2);
const withTests = args.includes('--tests'); // npm test's pretest: the tests are type-checked too
const only = args.find((a) => !a.startsWith('--')); // `renderer` or `preload`: that bundle alone

if (!only) run('tsc -b', bin('tsc'), ['-b']);
if (!only || only === 'renderer')
  bundle('renderer', {
    inputs: ['renderer', 'examples/playbooks', ...shared],
    output: 'dist/renderer/index.html',
    stampFile: 'dist/renderer.inputs',
    steps: [
      ['renderer type-check', bin('tsc'), ['-p', 'renderer']],
      ['renderer bundle', bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']],
    ],
  });
if (!only || only === 'preload')
  bundle('preload', {
    inputs: ['electron/preload', ...shared],
    output: 'dist/electron/preload/index.cjs',
    stampFile: 'dist/preload.inputs',
    steps: [['preload bundle', bin('vite'), ['build', '--config', 'electron/preload/vite.config.ts', '--logLevel', 'warn']]],
  });
if (withTests) run('tests type-check', bin('tsc'), ['-p', 'test']);
