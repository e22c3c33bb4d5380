import type { ComputerAction, ComputerActionResult, HeldEffect, ResolvedTarget } from '../../contract/index.js';
import type { Point } from '../../runtime/gui/coordinates.js';
import { describeEffects, EffectHeldError, type ApprovedCall } from '../../runtime/policy/effects/heldEffects.js';
import { pointOf, safeToScreen } from './actionPoint.js';
import { markTarget, type DesktopSession } from './desktopSession.js';

/** The square marked around a click point when no known target is under it. */
const POINT_MARK = 24;

/**
 * Runs one agent action inside the desktop's egress window: what the desktop sends until it goes
 * quiet is decided by the proxy's effect gate; anything held (never sent) makes the call an
 * `EffectHeldError` — the engine's approval of exactly those requests, as in the browser tier —
 * even when the action itself failed. Approved, the engine runs the action again and the proxy
 * lets those requests through once (`approved.effects`).
 */
export async function runGatedAction(
  session: DesktopSession,
  action: ComputerAction,
  approved: ApprovedCall | undefined,
  act: () => Promise<ComputerActionResult>,
  resolved?: ResolvedTarget,
): Promise<ComputerActionResult> {
  const egress = session.egress;
  if (!egress) return act(); // network `none`: nothing can leave the desktop
  const point = pointOf(action);
  const screenPoint = resolved?.point ?? (point && safeToScreen(session, point));
  const target = screenPoint && session.targetAt(screenPoint);
  const page = session.pageUrl;
  egress.open(approved, originOf(page));
  let outcome: { result: ComputerActionResult } | { error: unknown };
  try {
    outcome = { result: await act() };
  } catch (error) {
    outcome = { error };
  }
  const held = await egress.close();
  if (held.length > 0)
    throw await heldError(
      session,
      held,
      describeAction(action, resolved, target?.target.text, page),
      screenPoint,
      resolved?.box ?? target?.target.rect,
    );
  if ('error' in outcome) throw outcome.error;
  return outcome.result;
}

/** The approval's error: method, URL and masked fields of each held request, the acted-on point marked. */
async function heldError(
  session: DesktopSession,
  effects: readonly HeldEffect[],
  action: string,
  at: Point | undefined,
  rect: { x: number; y: number; width: number; height: number } | undefined,
): Promise<EffectHeldError> {
  const risk = effects.find((e) => e.risk === 'payment')?.risk ?? effects[0]!.risk;
  const why = [...new Set(effects.flatMap((e) => e.reasons))].join('; ');
  const screenshot = await markedScreen(session, at, rect).catch(() => undefined);
  return new EffectHeldError(effects, {
    summary: `${action}: the desktop sent ${describeEffects(effects)} — ${risk}: ${why}`,
    body: JSON.stringify(effects, null, 2),
    ...(screenshot && { screenshot }),
    effects: [...effects],
  });
}

/** The screen now (a held navigation leaves the page where it was), the target or point outlined. */
async function markedScreen(
  session: DesktopSession,
  at: Point | undefined,
  rect: { x: number; y: number; width: number; height: number } | undefined,
): Promise<string> {
  const shot = await session.sandbox.call('screen.capture', { format: 'png' });
  const mark = rect ?? (at && { x: at.x - POINT_MARK / 2, y: at.y - POINT_MARK / 2, width: POINT_MARK, height: POINT_MARK });
  return mark ? markTarget(shot.data, shot.screenWidth, shot.screenHeight, mark) : shot.data;
}

function describeAction(
  action: ComputerAction,
  resolved: ResolvedTarget | undefined,
  targetText: string | undefined,
  page: string | undefined,
): string {
  const named = resolved?.role
    ? `${resolved.role} '${(resolved.name ?? '').slice(0, 80)}'`
    : resolved?.text
      ? `'${resolved.text.slice(0, 80)}'`
      : undefined;
  const on = named ? ` ${named}` : targetText ? ` on "${targetText.slice(0, 80)}"` : '';
  return `computer ${action.action}${on}${page ? ` (page ${page})` : ''}`;
}

function originOf(url: string | undefined): string {
  try {
    return url ? new URL(url).origin : 'null';
  } catch {
    return 'null';
  }
}
