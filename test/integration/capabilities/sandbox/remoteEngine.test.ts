import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxDriver } from '../../../../electron/capabilities/sandbox/sandboxDriver.js';
import { missing } from '../../../support/requirements.js';
import { tempDir } from '../../../support/runtime.js';
import { desktopImage } from '../../../support/sandboxImage.js';
import { useHeavySlot } from '../../../support/heavySlot.js';

useHeavySlot();

// Root, a dockerd binary and a running engine; AGENT_DESK_REQUIRE=dockerd turns a skip into a failure.
const skip = missing('dockerd');

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe.skipIf(skip)('a remote engine through DOCKER_HOST (a second dockerd on loopback TCP)', () => {
  let dockerd: ChildProcess;
  let dir: string;
  let host: string;
  let image: string;
  let bridge: string | undefined;

  beforeAll(async () => {
    image = await desktopImage();
    dir = tempDir('agent-desk-dockerd-');
    const port = await freePort();
    host = `tcp://127.0.0.1:${port}`;
    const ns = `agentdesk-test-${port}`;
    // Its own bridge: with `--bridge none` a second dockerd would delete the host's docker0.
    bridge = `adt${port}`;
    for (const args of [
      ['link', 'add', 'name', bridge, 'type', 'bridge'],
      ['addr', 'add', '10.213.77.1/24', 'dev', bridge],
      ['link', 'set', bridge, 'up'],
    ]) {
      const r = spawnSync('ip', args, { stdio: 'pipe' });
      if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr.toString()}`);
    }
    dockerd = spawn(
      'dockerd',
      [
        '--data-root',
        path.join(dir, 'data'),
        '--exec-root',
        path.join(dir, 'exec'),
        '--pidfile',
        path.join(dir, 'pid'),
        '-H',
        host,
        '--bridge',
        bridge,
        '--iptables=false',
        '--ip-masq=false',
        '--containerd-namespace',
        ns,
        '--containerd-plugins-namespace',
        `${ns}-p`,
      ],
      { stdio: 'ignore' },
    );
    const remote = new Docker({ host: '127.0.0.1', port });
    for (
      let i = 0;
      !(await remote.ping().then(
        () => true,
        () => false,
      ));
      i++
    ) {
      if (i > 240 || dockerd.exitCode !== null) throw new Error(`the second dockerd did not answer on ${host}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // The remote engine has no registry either: ship the image over the same TCP API.
    const load = spawnSync('sh', ['-c', `docker save ${image} | DOCKER_HOST=${host} docker load`], { stdio: 'pipe' });
    if (load.status !== 0) throw new Error(`docker load into ${host} failed: ${load.stderr.toString()}`);
  }, 600_000);

  afterAll(async () => {
    if (dockerd && dockerd.exitCode === null) {
      dockerd.kill('SIGTERM');
      await new Promise((r) => dockerd.once('exit', r));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (bridge) spawnSync('ip', ['link', 'delete', bridge], { stdio: 'ignore' });
  }, 120_000);

  it('creates, drives and destroys a sandbox on the remote engine only', async () => {
    const owner = `test-remote-${process.pid}`;
    // Built before DOCKER_HOST is set: dockerode's defaults (read at construction) would win.
    const local = new SandboxDriver({ image, owner, docker: new Docker({ socketPath: '/var/run/docker.sock' }) });
    const previous = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = host;
    try {
      const driver = new SandboxDriver({ image, owner }); // dockerode reads DOCKER_HOST
      const sandbox = await driver.create();
      expect((await sandbox.call('health', {})).ok).toBe(true);
      expect((await sandbox.call('screen.capture', { format: 'jpeg', width: 640, height: 400 })).width).toBe(640);
      expect(await sandbox.call('mouse.move', { x: 10, y: 20 })).toEqual({ x: 10, y: 20 });
      expect(await driver.list()).toHaveLength(1);
      expect(await local.list()).toEqual([]);
      await driver.close();
      expect(await driver.list()).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = previous;
    }
  }, 120_000);
});
