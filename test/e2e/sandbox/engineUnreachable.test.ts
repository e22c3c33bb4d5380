import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import { CliSandbox } from '../../support/cliSandbox.js';
import { startServe } from '../../support/serveProcess.js';

let cli: CliSandbox | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await cli?.cleanup();
  cli = undefined;
});

describe('sandboxes.* with the Docker engine unreachable', () => {
  it('answers sandboxes.list and sandboxes.destroy with unavailable naming the engine, not internal', async () => {
    cli = new CliSandbox();
    const engine = `unix://${path.join(cli.home, 'no-such-docker.sock')}`;
    const serve = await startServe(cli, 30_000, [], { DOCKER_HOST: engine });
    client = await serve.connect();

    const unreachable = {
      code: 'unavailable',
      message: expect.stringContaining(`the Docker engine at ${engine} cannot be reached (ENOENT)`),
      details: { engine, cause: 'ENOENT' },
    };
    await expect(client.call('sandboxes.list', {})).rejects.toMatchObject(unreachable);
    await expect(client.call('sandboxes.destroy', { id: 'agent-desk-sbx-0123456789' })).rejects.toMatchObject(unreachable);
    // The gateway keeps serving.
    await expect(client.call('system.info', {})).resolves.toMatchObject({ name: 'agent-desk' });
  });
});
