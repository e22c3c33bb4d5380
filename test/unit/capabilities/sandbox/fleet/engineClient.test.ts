import { describe, expect, it } from 'vitest';
import { engineFor, fleetEngines, SandboxHostError } from '../../../../../electron/capabilities/sandbox/fleet/engineClient.js';
import type { SecretStore } from '../../../../../electron/runtime/secrets/secretStore.js';

const store = (values: Record<string, string>): SecretStore => ({
  set: () => undefined,
  get: (name) => values[name],
  list: () => Object.keys(values),
  delete: () => false,
});

describe('fleet engines', () => {
  it('without hosts: the one default engine, no capacity limit', () => {
    const [only, ...rest] = fleetEngines({ runtime: 'runc' });
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ name: 'local', capacity: Number.POSITIVE_INFINITY, runtime: 'runc' });
  });

  it('reads TLS material from the secret store, by name', () => {
    const host = { name: 'b', docker: 'tcp://desktops-b.example:2376', capacity: 8, tls: { caSecret: 'ca', certSecret: 'crt', keySecret: 'key' } };
    const engine = engineFor(host, 'runsc', store({ ca: 'CA-PEM', crt: 'CRT-PEM', key: 'KEY-PEM' }));
    expect(engine).toMatchObject({ name: 'b', address: 'tcp://desktops-b.example:2376', capacity: 8, runtime: 'runsc' });
    const modem = (engine.docker as unknown as { modem: Record<string, unknown> }).modem;
    expect(modem).toMatchObject({ host: 'desktops-b.example', port: 2376, protocol: 'https', ca: 'CA-PEM' });
  });

  it('a missing TLS secret is a typed error naming the host and field, not the value', () => {
    const host = { name: 'b', docker: 'tcp://h:2376', capacity: 1, tls: { caSecret: 'ca', certSecret: 'crt', keySecret: 'key' } };
    let caught: unknown;
    try {
      engineFor(host, 'runc', store({ ca: 'CA-PEM', crt: 'CRT-PEM' }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SandboxHostError);
    expect(caught).toMatchObject({ code: 'invalid_request', details: { host: 'b', field: 'tls.keySecret' } });
    expect((caught as Error).message).not.toContain('PEM');
  });
});
