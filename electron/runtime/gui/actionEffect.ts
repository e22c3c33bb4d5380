import type { ActionChange, DesktopObservation } from '../../contract/index.js';

/** What differs between the desktop before an action and after it (empty: the action changed nothing). */
export function changesBetween(before: DesktopObservation, after: DesktopObservation): ActionChange[] {
  const changes: ActionChange[] = [];
  const focusKey = (o: DesktopObservation): string =>
    o.focus
      .map((n) => n.id)
      .sort()
      .join('|');
  if (focusKey(before) !== focusKey(after)) changes.push('focus');
  if (before.window?.id !== after.window?.id || before.window?.title !== after.window?.title) changes.push('window');
  if (before.node !== undefined && JSON.stringify(nodeState(before.node)) !== JSON.stringify(nodeState(after.node ?? null)))
    changes.push('element');
  if (before.regionDigest !== after.regionDigest) changes.push('pixels');
  if (before.screenDigest !== after.screenDigest) changes.push('screen');
  return changes;
}

const nodeState = (n: DesktopObservation['node']): unknown =>
  n ? { name: n.name, states: [...n.states].sort(), value: n.value, bounds: n.bounds } : null;

/** True when an object the tree shows cannot be operated (no "enabled"/"sensitive" state). */
export const isDisabled = (states: readonly string[] | undefined): boolean =>
  states !== undefined && !(states.includes('enabled') && states.includes('sensitive'));
