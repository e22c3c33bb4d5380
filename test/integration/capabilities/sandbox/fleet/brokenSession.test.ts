import { execFileSync } from 'node:child_process';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { DesktopFleet } from '../../../../../electron/capabilities/sandbox/fleet/desktopFleet.js';
import { fleetEngines } from '../../../../../electron/capabilities/sandbox/fleet/engineClient.js';
import { pollUntil } from '../../../../support/poll.js';
import { missing } from '../../../../support/requirements.js';
import { desktopImage } from '../../../../support/sandboxImage.js';

const skip = missing('docker');

// A desktop whose sandboxd is gone while its container runs on answers nothing more: a call on it
// is a lost desktop (retryable, its effect unknown once sent), and the container is removed.
describe.skipIf(skip)('a desktop whose sandboxd went away under a call', () => {
  const fleet = new DesktopFleet(fleetEngines({ runtime: 'runc' }), { owner: `test-broken-${process.pid}`, poolSize: 0, limits: {} });
  afterAll(async () => {
    await fleet.close();
  });

  it('is lost, not a plain failure, and its container is removed', async () => {
    await fleet.start(await desktopImage(), async () => ({}));
    const sandbox = await fleet.acquire('T-broken');
    execFileSync('docker', ['exec', sandbox.id, 'pkill', '-f', 'sandboxd/src/main.js']);
    const error = await sandbox.call('screen.capture', { format: 'png' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'desktop_lost', retryable: true });
    expect(sandbox.lost).toBe(true);
    const docker = new Docker();
    await pollUntil(
      'the container removed',
      () =>
        docker
          .getContainer(sandbox.id)
          .inspect()
          .then(
            () => undefined,
            (e: { statusCode?: number }) => (e.statusCode === 404 ? true : undefined),
          ),
      { timeoutMs: 30_000 },
    );
  }, 120_000);
});
