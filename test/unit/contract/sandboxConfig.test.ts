import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../electron/contract/index.js';

const issues = (sandbox: unknown): string[] => {
  const parsed = ConfigSchema.safeParse({ sandbox });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('sandbox.hosts config', () => {
  it('defaults to the one engine under runc', () => {
    const { sandbox } = ConfigSchema.parse({});
    expect(sandbox.hosts).toBeUndefined();
    expect(sandbox.runtime).toBe('runc');
  });

  it('takes the issue’s two hosts', () => {
    const hosts = [
      { name: 'local', docker: 'unix:///var/run/docker.sock', capacity: 2 },
      { name: 'b', docker: 'tcp://desktops-b.example:2376', tls: { caSecret: 'ca', certSecret: 'c', keySecret: 'k' }, capacity: 8 },
    ];
    expect(ConfigSchema.parse({ sandbox: { hosts, runtime: 'runsc' } }).sandbox.hosts).toEqual(hosts);
  });

  it('names each bad entry by its path', () => {
    expect(issues({ hosts: [{ name: 'a', docker: 'http://x', capacity: 0 }] })).toEqual([
      'sandbox.hosts.0.docker: unix:///path/to/docker.sock or tcp://host:port',
      'sandbox.hosts.0.capacity: Too small: expected number to be >=1',
    ]);
    expect(issues({ hosts: [{ name: 'a', docker: 'unix:///s', capacity: 1, tls: { caSecret: 'a', certSecret: 'b', keySecret: 'c' } }] })).toEqual([
      'sandbox.hosts.0.tls: tls applies to a tcp:// engine only (a unix socket has no TLS)',
    ]);
    const twice = { name: 'a', docker: 'unix:///s', capacity: 1 };
    expect(issues({ hosts: [twice, twice] })).toEqual(['sandbox.hosts.1.name: host name "a" is used twice']);
    expect(issues({ hosts: [{ ...twice, password: 'x' }] })[0]).toContain('sandbox.hosts.0');
  });

  it('refuses egress under gVisor (no network there yet)', () => {
    expect(issues({ runtime: 'runsc', egressAllow: ['example.com'] })).toEqual([
      'sandbox.egressAllow: desktops under runsc (gVisor) have no network yet: leave egressAllow empty, or run them under runc',
    ]);
  });
});
