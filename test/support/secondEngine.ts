import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { tempDir } from './runtime.js';

/** A second real dockerd on this machine: its own socket, data root, exec root, pidfile and bridge. */
export interface SecondEngine {
  /** `unix:///…/docker.sock`, as `sandbox.hosts[].docker` names it. */
  address: string;
  docker: Docker;
  /** Stops the engine (SIGTERM: its containers stop, and stay in its data root). */
  stop(): Promise<void>;
  /** Starts it again over the same data root. */
  start(): Promise<void>;
  /** Stops it and removes its folders and bridge. */
  remove(): Promise<void>;
}

let bridges = 0;

/**
 * A 10.214.N.0/24 no interface on this machine holds yet: test files run side by side, and two
 * engines' bridges on one subnet would route each other's traffic.
 */
function freeSubnet(): number {
  const taken = new Set(
    [...spawnSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' }).stdout.matchAll(/10\.214\.(\d+)\./g)].map((m) => Number(m[1])),
  );
  const start = 20 + Math.floor(Math.random() * 200);
  for (let i = 0; i < 200; i++) {
    const n = 20 + ((start - 20 + i) % 200);
    if (!taken.has(n)) return n;
  }
  throw new Error('no free 10.214.N.0/24 for a second engine bridge');
}

/**
 * Starts a second dockerd (root only). `runsc` registers gVisor as a runtime with no network
 * (`--network=none`; not `--ignore-cgroups`, which drops the desktop's memory and pids limits).
 * `image` is shipped in with `docker save | docker load` (no registry here).
 */
export async function startSecondEngine(o: { image?: string; runsc?: boolean } = {}): Promise<SecondEngine> {
  const dir = tempDir('agent-desk-engine-');
  const socket = path.join(dir, 'docker.sock');
  const n = freeSubnet();
  const bridge = `adb${process.pid % 10_000}${++bridges}`;
  const ns = `agentdesk-${path.basename(dir)}`;
  // Its own bridge: with `--bridge none` a second dockerd would delete the host's docker0.
  for (const args of [
    ['link', 'add', 'name', bridge, 'type', 'bridge'],
    ['addr', 'add', `10.214.${n}.1/24`, 'dev', bridge],
    ['link', 'set', bridge, 'up'],
  ]) {
    const r = spawnSync('ip', args, { stdio: 'pipe' });
    if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr.toString()}`);
  }
  const config = path.join(dir, 'daemon.json');
  const runtimes = o.runsc ? { runtimes: { runsc: { path: 'runsc', runtimeArgs: ['--network=none'] } } } : {};
  writeFileSync(config, JSON.stringify(runtimes));
  const args = [
    '--config-file',
    config,
    '--host',
    `unix://${socket}`,
    '--data-root',
    path.join(dir, 'data'),
    '--exec-root',
    path.join(dir, 'exec'),
    '--pidfile',
    path.join(dir, 'pid'),
    '--bridge',
    bridge,
    '--iptables=false',
    '--ip-masq=false',
    '--containerd-namespace',
    ns,
    '--containerd-plugins-namespace',
    `${ns}-p`,
  ];
  const docker = new Docker({ socketPath: socket });
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('dockerd', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4_000)));
    for (
      let i = 0;
      !(await docker.ping().then(
        () => true,
        () => false,
      ));
      i++
    ) {
      if (i > 240 || child.exitCode !== null) throw new Error(`the second dockerd did not answer on ${socket}: ${log}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  if (o.image) {
    const load = spawnSync('sh', ['-c', `docker save ${o.image} | docker -H unix://${socket} load`], { stdio: 'pipe' });
    if (load.status !== 0) throw new Error(`docker load into ${socket} failed: ${load.stderr.toString()}`);
  }
  return {
    address: `unix://${socket}`,
    docker,
    stop,
    start,
    async remove() {
      await stop();
      // A container caught mid-start when the engine stopped can leave its overlay mounted.
      for (const mount of readFileSync('/proc/mounts', 'utf8')
        .split('\n')
        .map((l) => l.split(' ')[1] ?? '')
        .filter((m) => m.startsWith(dir))
        .reverse())
        spawnSync('umount', ['-l', mount], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
      spawnSync('ip', ['link', 'delete', bridge], { stdio: 'ignore' });
    },
  };
}
