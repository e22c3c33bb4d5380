import type { ComputerAction } from '../../contract/index.js';
import type { Point } from '../../runtime/gui/coordinates.js';
import type { DesktopSession } from './desktopSession.js';

/** Where an action points, in model space (clicks, moves, scrolls, the start of a drag); none for a click on a target alone. */
export function pointOf(a: ComputerAction): Point | undefined {
  if (a.action === 'click') return a.x === undefined || a.y === undefined ? undefined : { x: a.x, y: a.y };
  if (a.action === 'move' || a.action === 'scroll') return { x: a.x, y: a.y };
  if (a.action === 'drag') return a.path[0];
  return undefined;
}

/** A model-space point on the screen, or undefined when out of range. */
export function safeToScreen(session: DesktopSession, p: Point): Point | undefined {
  try {
    return session.space.toScreen(p);
  } catch {
    return undefined; // out of range: execute reports it as a typed error
  }
}
