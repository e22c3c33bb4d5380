import type { ActionChange, ComputerAction, ComputerActionResult, DesktopObservation, ScreenBox } from '../../contract/index.js';
import { changesBetween, isDisabled } from '../../runtime/gui/actionEffect.js';
import { ToolError } from '../../runtime/tools/types.js';
import type { DesktopSession } from './desktopSession.js';
import type { Resolution } from './targetResolver.js';

/** Actions whose effect is checked: what a person does to change something. */
const CHECKED = new Set<ComputerAction['action']>(['click', 'drag', 'type', 'key']);
/** Pixels around the target that count as "near it" (a pressed look, a tick, a caret). */
const MARGIN = 16;
/** The square watched around a bare coordinate. */
const POINT_BOX = 48;
/**
 * How long a slow application may take to show an action's effect once the screen was still: a
 * loaded machine's window manager can draw a menu after the settle's quiet frames. Only an action
 * that seems to have changed nothing waits for it.
 */
const LATE_EFFECT_MS = 1_500;
const LATE_EFFECT_POLL_MS = 250;

/** The action changed nothing on the desktop: the model is told, never a success. */
export class NoEffectError extends ToolError {
  constructor(message: string) {
    super(message, false, 'no_effect');
    this.name = 'NoEffectError';
  }
}

function watchedRegion(
  session: DesktopSession,
  a: ComputerAction,
  resolution: Resolution | undefined,
  at: { x: number; y: number } | undefined,
): ScreenBox | undefined {
  const { width, height } = session.sandbox.screen;
  const clip = (b: ScreenBox): ScreenBox => {
    const x = Math.max(0, Math.min(width - 1, b.x));
    const y = Math.max(0, Math.min(height - 1, b.y));
    return {
      x,
      y,
      width: Math.max(1, Math.min(width - x, b.x + b.width - x)),
      height: Math.max(1, Math.min(height - y, b.y + b.height - y)),
    };
  };
  const box = resolution?.target.box;
  if (box) return clip({ x: box.x - MARGIN, y: box.y - MARGIN, width: box.width + 2 * MARGIN, height: box.height + 2 * MARGIN });
  if (at && a.action !== 'type' && a.action !== 'key')
    return clip({ x: at.x - POINT_BOX / 2, y: at.y - POINT_BOX / 2, width: POINT_BOX, height: POINT_BOX });
  return undefined;
}

/**
 * Runs an action between two observations of the desktop (focus, window, the target's state,
 * the pixels near it, the whole screen) and reports what changed. An action that changed none
 * of them is a `NoEffectError`: a click on a disabled button is not a success.
 */
export async function verifiedAction(
  session: DesktopSession,
  a: ComputerAction,
  resolution: Resolution | undefined,
  at: { x: number; y: number } | undefined,
  act: () => Promise<ComputerActionResult>,
): Promise<ComputerActionResult> {
  if (!CHECKED.has(a.action)) return act();
  const region = watchedRegion(session, a, resolution, at);
  const observe = (node: string | undefined): Promise<DesktopObservation> =>
    session.sandbox.call('desktop.observe', { ...(region && { region }), ...(node !== undefined && { node }) });
  const first = await observe(resolution?.nodeId);
  // A keystroke's element is the one with the focus before it.
  const nodeId = resolution?.nodeId ?? (a.action === 'type' || a.action === 'key' ? first.focus[0]?.id : undefined);
  const before =
    nodeId !== undefined && first.node === undefined ? { ...first, node: first.focus.find((n) => n.id === nodeId) ?? null } : first;
  const result = await act();
  // A control the tree says is disabled can do nothing itself: a blur elsewhere is not its effect.
  const own = (changed: ActionChange[]) =>
    isDisabled(resolution?.target.states) ? changed.filter((c) => c === 'element' || c === 'pixels' || c === 'window') : changed;
  let changed = changesBetween(before, await observe(nodeId));
  for (const until = Date.now() + LATE_EFFECT_MS; own(changed).length === 0 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, LATE_EFFECT_POLL_MS));
    changed = changesBetween(before, await observe(nodeId));
  }
  if (own(changed).length === 0) throw new NoEffectError(noEffectMessage(a, resolution, before));
  return { ...result, changed };
}

function noEffectMessage(a: ComputerAction, resolution: Resolution | undefined, before: DesktopObservation): string {
  const t = resolution?.target;
  const what = t?.role ? `${t.role} "${t.name ?? ''}"` : t?.text ? `text "${t.text}"` : undefined;
  const on = what ? ` on ${what}` : t ? ` at (${t.point.x}, ${t.point.y})` : '';
  const states = t?.states ?? (before.node ? before.node.states : undefined);
  const disabled = isDisabled(states) ? ` — the ${t?.role ?? before.node?.role ?? 'element'} is disabled` : '';
  return (
    `${a.action}${on} changed nothing: the focus, the active window, the element's state and the pixels around it are as before` +
    `${disabled}. Take a screenshot and try something else.`
  );
}
