/** What placement knows of one engine. */
export interface PlacementView {
  name: string;
  up: boolean;
  hasImage: boolean;
  /** Room for one more task desktop. */
  room: number;
  /** Warm sandboxes ready on it. */
  warm: number;
}

/** Where a desktop goes: a host, wait for room, or why none can take it. */
export type Placement = { kind: 'host'; name: string } | { kind: 'wait' } | { kind: 'none'; reason: string };

/**
 * Places a task's desktop on an engine that answers, has the image and has room: one with a warm
 * sandbox first (one round trip to its first screenshot), else the one with the most room (ties by
 * configured order). Full everywhere: wait for a release. No engine usable: say why, per engine.
 */
export function place(hosts: readonly PlacementView[]): Placement {
  const usable = hosts.filter((h) => h.up && h.hasImage);
  const open = usable.filter((h) => h.room > 0);
  const warm = open.find((h) => h.warm > 0);
  if (warm) return { kind: 'host', name: warm.name };
  const roomiest = open.reduce<PlacementView | undefined>((best, h) => (!best || h.room > best.room ? h : best), undefined);
  if (roomiest) return { kind: 'host', name: roomiest.name };
  if (usable.length > 0) return { kind: 'wait' };
  const why = hosts.map(
    (h) => `${h.name}: ${h.up ? 'no desktop image (agent-desk sandbox build --host ' + h.name + ')' : 'the engine does not answer'}`,
  );
  return { kind: 'none', reason: why.join('; ') };
}

/** What one engine's desktops hold of its capacity now. */
export interface EngineLoad {
  capacity: number;
  /** Task desktops in use. */
  inUse: number;
  /** Task desktops being made (or taken from the warm pool) now. */
  pending: number;
  /** Warm desktops still starting (ready ones are handed to the next task, so they are its room). */
  warmStarting: number;
}

/** Room for one more task desktop: capacity less those in use, being made, and warm ones still starting. */
export function taskRoom(load: EngineLoad): number {
  return load.capacity - load.inUse - load.pending - load.warmStarting;
}

/** How many warm desktops the engine may hold: what its task desktops (in use and being made) leave. */
export function warmRoom(load: Omit<EngineLoad, 'warmStarting'>): number {
  return load.capacity - load.inUse - load.pending;
}
