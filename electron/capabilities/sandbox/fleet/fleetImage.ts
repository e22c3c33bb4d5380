import { BOOTSTRAP_BASE, DEFAULT_BASE, buildDesktopImage, desktopImageTag } from '../imageBuilder.js';
import { DEFAULT_HOST, type FleetEngine } from './engineClient.js';

/** How long one engine may take to say whether it has an image. */
const INSPECT_TIMEOUT_MS = 3_000;

async function hasImage(engine: FleetEngine, tag: string): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), INSPECT_TIMEOUT_MS)));
  const inspected = engine.docker
    .getImage(tag)
    .inspect()
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([inspected, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The desktop image of the current sources for a fleet. With `sandbox.hosts`, a tag of these
 * sources (on either base `sandbox build` uses) that an engine of the fleet already has is used
 * as is, so a fleet of remote engines needs no local engine; otherwise the default engine builds
 * (or reuses) it, as `agent-desk sandbox build` does.
 */
export async function fleetDesktopImage(
  engines: readonly FleetEngine[],
  root: string,
  build: () => Promise<{ image: string }> = () => buildDesktopImage({ root }),
): Promise<string> {
  const remote = !(engines.length === 1 && engines[0]!.name === DEFAULT_HOST);
  if (remote)
    for (const tag of [DEFAULT_BASE, BOOTSTRAP_BASE].map((base) => desktopImageTag(root, base))) {
      const present = await Promise.all(engines.map((e) => hasImage(e, tag)));
      if (present.some(Boolean)) return tag;
    }
  return (await build()).image;
}
