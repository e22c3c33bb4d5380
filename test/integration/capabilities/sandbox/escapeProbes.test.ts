import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxDriver } from '../../../../electron/capabilities/sandbox/sandboxDriver.js';
import type { DesktopSandbox } from '../../../../electron/capabilities/sandbox/desktopSandbox.js';
import { missing } from '../../../support/requirements.js';
import { desktopImage } from '../../../support/sandboxImage.js';

const skip = missing('docker');

describe.skipIf(skip)('escape probes from inside a sandbox all fail', () => {
  let driver: SandboxDriver;
  let sandbox: DesktopSandbox;
  const sh = (script: string) => sandbox.call('exec.run', { command: ['sh', '-c', script], timeoutMs: 20_000 });

  beforeAll(async () => {
    driver = new SandboxDriver({ image: await desktopImage(), owner: `test-escape-${process.pid}` });
    sandbox = await driver.create();
  }, 600_000);
  afterAll(async () => {
    await driver?.close();
    expect(await driver.list()).toEqual([]);
  });

  it('runs as the non-root user with no capabilities and no privilege gain', async () => {
    const run = await sh('id -u; grep -E "^(CapEff|CapBnd|NoNewPrivs)" /proc/self/status');
    expect(run.stdout).toMatch(/^1000\n/);
    expect(run.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(run.stdout).toMatch(/CapBnd:\s+0+\n/);
    expect(run.stdout).toMatch(/NoNewPrivs:\s+1/);
  });

  it('cannot mount a file system', async () => {
    const run = await sh('mkdir -p /tmp/m && mount -t tmpfs none /tmp/m');
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/permission denied|must be superuser|not permitted/i);
  });

  it('cannot open a raw socket', async () => {
    const run = await sh(`perl -e 'use Socket; socket(my $s, PF_INET, SOCK_RAW, 1) or die "raw socket: $!\\n"; print "opened\\n"'`);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/raw socket: Operation not permitted/);
  });

  it('cannot write outside /tmp and the home folder (read-only root)', async () => {
    for (const target of ['/etc/probe', '/usr/local/bin/probe', '/opt/sandboxd/probe', '/probe']) {
      const run = await sh(`echo x > ${target}`);
      expect(run.exitCode, target).not.toBe(0);
      expect(run.stderr, target).toMatch(/Read-only file system|Permission denied/);
    }
    expect((await sh('echo x > /tmp/ok && echo x > ~/ok && cat /tmp/ok ~/ok')).stdout).toBe('x\nx\n');
  });

  it('cannot reach the host docker socket', async () => {
    const run = await sh(
      "ls -l /var/run/docker.sock /run/docker.sock 2>&1; node -e \"require('net').connect('/var/run/docker.sock').on('error',e=>{console.error(e.code);process.exit(3)})\"",
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/ENOENT/);
  });

  it('has no network egress with network none', async () => {
    const run = await sh(
      `node -e "const s=require('net').connect(80,'1.1.1.1');s.on('connect',()=>process.exit(0));s.on('error',e=>{console.error(e.code);process.exit(4)})"; ` +
        `node -e "require('dns').lookup('deb.debian.org',e=>{console.error(e?e.code:'resolved');process.exit(e?5:0)})"`,
    );
    expect(run.exitCode).toBe(5);
    expect(run.stderr).toMatch(/ENETUNREACH|EHOSTUNREACH|EACCES/);
    expect(run.stderr).toMatch(/EAI_AGAIN|ENOTFOUND|ECONNREFUSED/);
  });

  it('files.* refuse paths outside the home folder', async () => {
    await expect(sandbox.call('files.read', { path: '/etc/passwd' })).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(sandbox.call('files.write', { path: '../x', data: 'x' })).rejects.toThrow(/outside the home folder/);
  });
});
