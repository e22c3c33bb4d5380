import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { fleetEngines } from '../../../../../electron/capabilities/sandbox/fleet/engineClient.js';
import { HostSlot } from '../../../../../electron/capabilities/sandbox/fleet/hostSlot.js';
import { LABELS } from '../../../../../electron/capabilities/sandbox/hardening.js';
import { missing } from '../../../../support/requirements.js';
import { desktopImage } from '../../../../support/sandboxImage.js';

const skip = missing('docker');
const owner = `test-close-race-${process.pid}`;
const docker = new Docker();
const ownContainers = () => docker.listContainers({ all: true, filters: { label: [`${LABELS.owner}=${owner}`] } });

// Found as a container left running after a fleet test's runtime had closed (twoEngines, "no
// container left"): an engine that answered again was revived by a check still under way while
// the fleet closed, and the revive's warm refill started a desktop after close() had returned.
describe.skipIf(skip)('a host slot closed while its engine is being revived', () => {
  afterAll(async () => {
    for (const c of await ownContainers()) await docker.getContainer(c.Id).remove({ force: true });
  });

  it('makes no warm desktop after close(): the revive that lands later refills nothing', async () => {
    const [engine] = fleetEngines({ runtime: 'runc' });
    const slot = new HostSlot(engine!, { image: await desktopImage(), owner, limits: {}, poolSize: 1 }, () => undefined);
    await slot.markDown(); // the engine was lost (no pool yet, nothing in use)
    const reviving = slot.revive(); // it answers again: the revive lists and removes what was left…
    await slot.close(); // …while the fleet closes
    await reviving;
    await slot.whenWarm(); // a pool made by the revive would be filling now
    expect(await ownContainers()).toEqual([]);
    expect(slot.warm).toBe(0);
  }, 120_000);
});
