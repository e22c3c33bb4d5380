import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentDeskError } from '../../runtime/errors.js';
import { docker, dockerOk, imageExists } from './dockerCli.js';

/** The repository name of desktop images; the tag is the content hash. */
export const DESKTOP_REPOSITORY = 'agent-desk/desktop';
/** The base we bootstrap when no Debian image can be pulled. */
export const BOOTSTRAP_BASE = 'agent-desk/debian-base:trixie-minbase';
/** What the Dockerfile builds FROM when the engine already has it (or can pull it). */
export const DEFAULT_BASE = 'debian:trixie-slim';
const MIRROR = 'http://deb.debian.org/debian';

/** Repo-relative inputs of the image, in the same layout inside the build context. */
const CONTEXT_ROOTS = ['sandbox-images/desktop', 'electron/contract/sandboxProtocol.ts'];
const SKIP = new Set(['node_modules', 'dist', 'extra-ca']);
/** Extra TLS roots of the build machine (a registry proxy's CA), copied in so `npm ci` works. */
const EXTRA_CA_DIR = process.env.AGENT_DESK_EXTRA_CA_DIR ?? '/usr/local/share/ca-certificates';

function extraCaFiles(): string[] {
  try {
    return readdirSync(EXTRA_CA_DIR)
      .filter((f) => f.endsWith('.crt'))
      .sort();
  } catch {
    return [];
  }
}

/** The outcome of `agent-desk sandbox build`. */
export interface BuildOutcome {
  image: string;
  hash: string;
  base: string;
  reused: boolean;
  bootstrappedBase: boolean;
  seconds: number;
}

/** Options of a build. */
export interface BuildOptions {
  /** The repository root (where sandbox-images/ lives). */
  root: string;
  /** Base image reference; default: debian:trixie-slim if present, else a debootstrapped one. */
  base?: string;
  /** Rebuild even when an image with this content hash exists. */
  force?: boolean;
  /** Stream docker/debootstrap output to stderr. */
  echo?: boolean;
}

function listFiles(root: string, rel: string): string[] {
  const abs = path.join(root, rel);
  if (!statSync(abs).isDirectory()) return [rel];
  return readdirSync(abs)
    .filter((name) => !SKIP.has(name))
    .flatMap((name) => listFiles(root, path.posix.join(rel, name)));
}

/** The image's content hash: every input file (path + bytes) and the base reference. */
export function desktopImageHash(root: string, base: string): string {
  const hash = createHash('sha256').update(`base:${base}\n`);
  const files = CONTEXT_ROOTS.flatMap((r) => listFiles(root, r)).sort();
  for (const file of files)
    hash
      .update(`${file}\n`)
      .update(readFileSync(path.join(root, file)))
      .update('\n');
  for (const ca of extraCaFiles()) hash.update(`ca:${ca}\n`).update(readFileSync(path.join(EXTRA_CA_DIR, ca)));
  return hash.digest('hex').slice(0, 16);
}

/** The tag of the desktop image built from the current sources. */
export function desktopImageTag(root: string, base: string): string {
  return `${DESKTOP_REPOSITORY}:${desktopImageHash(root, base)}`;
}

async function chooseBase(opts: BuildOptions): Promise<{ base: string; bootstrapped: boolean }> {
  if (opts.base) return { base: opts.base, bootstrapped: false };
  if (await imageExists(DEFAULT_BASE)) return { base: DEFAULT_BASE, bootstrapped: false };
  if (await imageExists(BOOTSTRAP_BASE)) return { base: BOOTSTRAP_BASE, bootstrapped: false };
  await bootstrapBase(Boolean(opts.echo));
  return { base: BOOTSTRAP_BASE, bootstrapped: true };
}

/** debootstrap (minbase trixie: it ships Node 20) → tar → `docker import`. Needs local root. */
async function bootstrapBase(echo: boolean): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-rootfs-'));
  try {
    await dockerOk(['--variant=minbase', 'trixie', dir, MIRROR], { file: 'debootstrap', echo });
    const tar = spawn('tar', ['-C', dir, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const env = 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
    await dockerOk(['import', '-c', env, '-', BOOTSTRAP_BASE], { input: tar.stdout, echo });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Builds the desktop image, or reuses the one already tagged with the sources' content hash.
 * Where no base image exists and none can be pulled, bootstraps a Debian base first.
 */
export async function buildDesktopImage(opts: BuildOptions): Promise<BuildOutcome> {
  const started = Date.now();
  const { base, bootstrapped } = await chooseBase(opts);
  const hash = desktopImageHash(opts.root, base);
  const image = `${DESKTOP_REPOSITORY}:${hash}`;
  const outcome = (reused: boolean): BuildOutcome => ({
    image,
    hash,
    base,
    reused,
    bootstrappedBase: bootstrapped,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  });
  if (!opts.force && (await imageExists(image))) return outcome(true);
  const context = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-context-'));
  try {
    for (const rel of CONTEXT_ROOTS)
      cpSync(path.join(opts.root, rel), path.join(context, rel), {
        recursive: true,
        filter: (src) => !SKIP.has(path.basename(src)),
      });
    const caDir = path.join(context, 'sandbox-images/desktop/extra-ca');
    mkdirSync(caDir, { recursive: true });
    writeFileSync(path.join(caDir, 'README'), 'TLS roots of the build machine\n');
    for (const ca of extraCaFiles()) cpSync(path.join(EXTRA_CA_DIR, ca), path.join(caDir, ca));
    const args = ['build', '--build-arg', `BASE=${base}`, '--label', 'agent-desk.image=desktop', '--label', `agent-desk.hash=${hash}`];
    args.push('-t', image, '-t', `${DESKTOP_REPOSITORY}:latest`, '-f', path.join(context, 'sandbox-images/desktop/Dockerfile'), context);
    const result = await docker(args, { echo: opts.echo });
    if (result.code !== 0)
      throw new AgentDeskError('unavailable', `docker build of ${image} failed (exit ${result.code})`, {
        tail: result.stderr.slice(-4_000),
      });
    return outcome(false);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

/** The folder holding sandbox-images/: walks up from this module (works from src and dist). */
export function sandboxSourceRoot(from: string = path.dirname(new URL(import.meta.url).pathname)): string {
  let dir = from;
  for (;;) {
    try {
      if (statSync(path.join(dir, 'sandbox-images/desktop/Dockerfile')).isFile()) return dir;
    } catch {
      // keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new AgentDeskError('not_found', `no sandbox-images/desktop/Dockerfile above ${from}`);
    dir = parent;
  }
}
