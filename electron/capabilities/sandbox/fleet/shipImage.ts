import type Docker from 'dockerode';
import { AgentDeskError } from '../../../runtime/errors.js';
import type { FleetEngine } from './engineClient.js';

/** What `sandbox build --host` did on one engine. */
export interface ShipOutcome {
  host: string;
  image: string;
  /** False when the engine already had the image. */
  shipped: boolean;
}

/**
 * Puts the desktop image on a fleet engine: engines reach no registry, so the image built on the
 * default engine is streamed over the API (`docker save | docker load`), TLS and all.
 */
export async function shipImage(from: Docker, to: FleetEngine, image: string): Promise<ShipOutcome> {
  const present = await to.docker
    .getImage(image)
    .inspect()
    .then(
      () => true,
      () => false,
    );
  if (present) return { host: to.name, image, shipped: false };
  try {
    const tar = await from.getImage(image).get();
    const loading = await to.docker.loadImage(tar);
    await new Promise<void>((resolve, reject) => to.docker.modem.followProgress(loading, (error) => (error ? reject(error) : resolve())));
    await to.docker.getImage(image).inspect();
  } catch (error) {
    throw new AgentDeskError('unavailable', `could not put ${image} on sandbox host "${to.name}" (${to.address}): ${(error as Error).message}`, {
      host: to.name,
    });
  }
  return { host: to.name, image, shipped: true };
}
