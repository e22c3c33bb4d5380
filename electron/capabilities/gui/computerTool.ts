import { existsSync } from 'node:fs';
import sharp from 'sharp';
import type { ComputerAction, ComputerActionResult, ElementTarget, RiskClass } from '../../contract/index.js';
import { ComputerToolInputSchema } from '../../contract/index.js';
import type { Point } from '../../runtime/gui/coordinates.js';
import { ToolError, type CallClassification, type Tool, type ToolContext } from '../../runtime/tools/types.js';
import { abortable } from './abortable.js';
import type { DesktopSession } from './desktopSession.js';
import { pointOf, safeToScreen } from './actionPoint.js';
import { runGatedAction } from './gatedAction.js';
import { markOf, markScreenshot, markTarget, resolveMark } from './screenMarking.js';
import { elementAt, resolveTarget, type Resolution } from './targetResolver.js';
import { onThisScreen } from './recordedClick.js';
import { verifiedAction } from './verifiedAction.js';
import { classifyClickTarget } from '../../runtime/gui/riskyClick.js';
import { wantedLabel } from '../../runtime/gui/targetMatch.js';
import type { TaskDesktops } from './taskDesktops.js';
import { CAPABILITIES } from '../../runtime/tools/capabilities.js';

const READ_ONLY = new Set<ComputerAction['action']>(['screenshot', 'cursor_position', 'wait', 'zoom']);

/** One action on the task's desktop as it is now. */
async function runAction(
  session: DesktopSession,
  given: ComputerAction,
  ctx: ToolContext,
  onFrame: FrameSink,
  options: ComputerToolOptions,
): Promise<ComputerActionResult> {
  if (session.takenOver) throw new ToolError('a human has taken over this desktop; the agent waits for tasks.release', true, 'taken_over');
  const args = onThisScreen(given, session.space.model);
  if (READ_ONLY.has(args.action)) return abortable(performAction(session, args, onFrame, true, undefined, options), ctx.signal);
  // A named element is found on the screen as it is now (an approved click too: the element, not the old point).
  const point = pointOf(args);
  const at = point ? safeToScreen(session, point) : undefined;
  const resolution = await abortable(resolveClick(session, args, at), ctx.signal);
  const act = () =>
    verifiedAction(session, args, resolution, resolution?.target.point ?? at, () =>
      performAction(session, args, onFrame, true, resolution),
    );
  // A bare click records the element it was on (read before the click changes the screen).
  const under = args.action === 'click' && !resolution && at ? await abortable(elementAt(session.sandbox, at), ctx.signal) : undefined;
  const result = await abortable(runGatedAction(session, args, ctx.approved, act, resolution?.target), ctx.signal);
  return under && !result.target ? { ...result, target: under } : result;
}

/** The same loss, marked as one whose action may have happened (the engine holds it uncertain). */
function effectUnknown(lost: ToolError): ToolError {
  if (lost.effectUnknown) return lost;
  return new ToolError(`${lost.message} after its input was sent (it may or may not have happened)`, true, lost.code, true);
}

/** True when a Docker engine is configured (local socket or DOCKER_HOST). */
export function dockerConfigured(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

/** A click on a named element: its words decide the risk, the approval names it ("click button 'Place order'"). */
function classifyTargetClick(target: ElementTarget, session: DesktopSession | undefined, mark?: number): CallClassification {
  const label = wantedLabel(target);
  const role = target.role ?? 'element';
  const risky = classifyClickTarget({ text: label, role });
  const shown = session?.targetNamed(label);
  const marked = mark === undefined ? '' : `mark ${mark}: `;
  const summary = `click ${marked}${role} '${label.slice(0, 80)}'${risky ? ` — "${risky.matched}" looks like a payment` : ''}`;
  return {
    risks: risky ? ['payment'] : ['write'],
    subject: label.slice(0, 200),
    readOnly: false,
    idempotent: false,
    insideWorkspace: true,
    preview: { summary, ...(shown?.markedScreenshot ? { screenshot: shown.markedScreenshot } : {}) },
  };
}

function classifyAction(args: ComputerAction, session: DesktopSession | undefined): CallClassification {
  if (READ_ONLY.has(args.action))
    return { risks: ['read'], subject: '', readOnly: true, idempotent: true, insideWorkspace: true, preview: { summary: args.action } };
  if (args.action === 'click' && args.target) return classifyTargetClick(args.target, session);
  // A mark is classified by its element's words, as a named target is: a number must not bypass the gate.
  const marked = args.action === 'click' && args.mark !== undefined && session ? markTarget(session, args.mark) : undefined;
  if (marked && args.action === 'click') return classifyTargetClick(marked, session, args.mark);
  const point = pointOf(args);
  const screen = point && session ? safeToScreen(session, point) : undefined;
  const hit = screen && session ? session.targetAt(screen) : undefined;
  const where = screen ? ` at screen (${screen.x}, ${screen.y})` : '';
  const what = hit ? ` on ${hit.target.tag} "${hit.target.text.slice(0, 80)}"` : '';
  const risks: RiskClass[] = hit?.risky && (args.action === 'click' || args.action === 'drag') ? ['payment'] : ['write'];
  const summary =
    args.action === 'type'
      ? `type ${JSON.stringify(args.text.slice(0, 200))}`
      : `${args.action}${what}${where}${hit?.risky ? ` — "${hit.risky.matched}" looks like a payment` : ''}`;
  return {
    risks,
    // The sandbox is the task's own disposable desktop: GUI input stays inside it.
    subject: hit ? hit.target.text.slice(0, 200) : '',
    readOnly: false,
    idempotent: false,
    insideWorkspace: true,
    preview: { summary, ...(hit?.markedScreenshot ? { screenshot: hit.markedScreenshot } : {}) },
  };
}

/** Quiet time that counts as settled: after an action, and for an explicit `wait`. */
const AFTER_ACTION = { frames: 4, intervalMs: 40 };
const EXPLICIT_WAIT = { frames: 6, intervalMs: 50 };

/** Settles by screen stability (never a fixed sleep), then refreshes what the page offers. */
async function settle(session: DesktopSession, timeoutMs = 3_000, quiet = AFTER_ACTION): Promise<boolean> {
  const { stable } = await session.sandbox.call('screen.waitStable', { ...quiet, timeoutMs }, timeoutMs + 10_000);
  await session.refresh();
  return stable;
}

/** The screen at model-space size, as the model is shown it. */
async function modelScreenshot(session: DesktopSession): Promise<NonNullable<ComputerActionResult['screenshot']>> {
  const { space } = session;
  const size = space.scaled ? { width: space.model.width, height: space.model.height } : {};
  const shot = await session.sandbox.call('screen.capture', { format: 'png', ...size });
  return { format: 'png', mediaType: 'image/png', width: shot.width, height: shot.height, data: shot.data };
}

/** One region of the screen at the screen's resolution (no larger than the model space). */
async function zoomShot(
  session: DesktopSession,
  region: readonly [number, number, number, number],
): Promise<NonNullable<ComputerActionResult['screenshot']>> {
  const { space } = session;
  const from = space.toScreen({ x: region[0], y: region[1] });
  const to = space.toScreen({ x: region[2], y: region[3] });
  const shot = await session.sandbox.call('screen.capture', { format: 'png' });
  const width = Math.max(1, Math.min(shot.width, to.x) - from.x);
  const height = Math.max(1, Math.min(shot.height, to.y) - from.y);
  const png = await sharp(Buffer.from(shot.data, 'base64'))
    .extract({ left: from.x, top: from.y, width, height })
    .resize({ width: space.model.width, height: space.model.height, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { format: 'png', mediaType: 'image/png', width: png.info.width, height: png.info.height, data: png.data.toString('base64') };
}

/**
 * Performs one action on a desktop (the agent's and, during a takeover, the user's), then settles.
 * `report`: the result carries the screen after the action as the model sees it (the agent's
 * actions; computer-use protocols answer every action with a screenshot).
 */
export async function performAction(
  session: DesktopSession,
  a: ComputerAction,
  onFrame: FrameSink,
  report = false,
  resolution?: Resolution,
  options: ComputerToolOptions = {},
): Promise<ComputerActionResult> {
  const { sandbox, space } = session;
  const toScreen = (p: Point): Point => space.toScreen(p);
  switch (a.action) {
    case 'screenshot': {
      const screenshot = await modelScreenshot(session);
      onFrame(session, screenshot.data, 'png', screenshot.width, screenshot.height);
      if (a.marks ?? options.marks) return { action: a.action, ...(await markScreenshot(session, screenshot)) };
      return { action: a.action, screenshot };
    }
    case 'cursor_position':
      return { action: a.action, cursor: space.toModel(await sandbox.call('mouse.position', {})) };
    case 'zoom':
      return { action: a.action, screenshot: await zoomShot(session, a.region) };
    case 'wait': {
      const settled = await settle(session, a.timeoutMs, EXPLICIT_WAIT);
      return { action: a.action, settled, ...(report && { screenshot: await modelScreenshot(session) }) };
    }
    case 'move':
      await sandbox.call('mouse.move', toScreen(a));
      break;
    case 'click': {
      const at = resolution?.target.point ?? (a.x !== undefined && a.y !== undefined ? toScreen({ x: a.x, y: a.y }) : undefined);
      if (!at) throw new ToolError('a click needs x and y, or a target that was found', false, 'invalid_input');
      await sandbox.call('mouse.click', { ...at, button: a.button, count: a.count });
      break;
    }
    case 'drag': {
      const points = a.path.map(toScreen);
      for (let i = 1; i < points.length; i++) await sandbox.call('mouse.drag', { from: points[i - 1]!, to: points[i]! });
      break;
    }
    case 'scroll':
      await sandbox.call('mouse.scroll', { ...toScreen(a), dx: a.dx, dy: a.dy });
      break;
    case 'type':
      await sandbox.call('keyboard.type', { text: a.text });
      break;
    case 'key':
      await sandbox.call('keyboard.press', { keys: a.keys });
      break;
  }
  const settled = await settle(session);
  const frame = await sandbox.call('screen.capture', { format: 'jpeg', quality: 70 });
  onFrame(session, frame.data, 'jpeg', frame.width, frame.height);
  const cursor = await sandbox.call('mouse.position', {});
  const point = pointOf(a);
  const screenPoint = resolution?.target.point ?? (point ? toScreen(point) : undefined);
  return {
    action: a.action,
    cursor: space.toModel(cursor),
    settled,
    screen: { width: sandbox.screen.width, height: sandbox.screen.height },
    ...(screenPoint ? { screenPoint } : {}),
    ...(resolution && { target: resolution.target }),
    ...(report && { screenshot: await modelScreenshot(session) }),
  };
}

/** How the `computer` tool is set up (`sandbox.marks` of config.json). */
export interface ComputerToolOptions {
  /** Every screenshot the model asks for is marked, as if it asked with `marks: true`. */
  marks?: boolean;
}

/** The element a click names (a target, or a mark of the last marked screenshot), found on the screen now. */
async function resolveClick(session: DesktopSession, a: ComputerAction, at: Point | undefined): Promise<Resolution | undefined> {
  if (a.action !== 'click') return undefined;
  if (a.mark !== undefined) return resolveMark(session, markOf(session, a.mark));
  return a.target ? resolveTarget(session.sandbox, a.target, at) : undefined;
}

/** Receives frames for the live view (`screen.frame`). */
export type FrameSink = (session: DesktopSession, data: string, format: 'png' | 'jpeg', width: number, height: number) => void;

/**
 * `computer`: the one GUI action space (Anthropic/OpenAI computer use, UI-TARS normalize into it),
 * acting on the task's disposable desktop. Coordinates are model space; the runtime converts.
 * A click whose target reads Pay/Buy/Place order/支付/付款/购买/提交订单 is a payment: it waits
 * for approval with the target marked on the screenshot. Whatever the label, a state-changing
 * request the desktop sends during an action is held by the egress proxy and the step asks for
 * exactly it (`runGatedAction`).
 */
export function computerTool(desktops: TaskDesktops, onFrame: FrameSink, options: ComputerToolOptions = {}): Tool<ComputerAction> {
  return {
    name: 'computer',
    title: 'Use the desktop',
    description:
      "Screenshot, move, click, drag, scroll, type (any language) and press keys on the task's sandboxed desktop. " +
      "Coordinates are in the screenshot's pixel space. A screenshot with marks: true numbers the screen's elements " +
      'and lists them in a legend; click one with {"action": "click", "mark": N}.',
    tier: 'gui',
    // The desktop is the last tier for pages (its Chromium), read or acted on.
    capabilities: [CAPABILITIES.webRead, CAPABILITIES.webInteract],
    risk: 'payment',
    readOnly: false,
    idempotent: false,
    input: ComputerToolInputSchema,
    classify: (args, ctx) => classifyAction(args, desktops.peek(ctx.workspace)),
    availability: () =>
      dockerConfigured() ? { available: true } : { available: false, reason: 'no Docker engine (no /var/run/docker.sock, no DOCKER_HOST)' },
    execute: async (given, ctx) => {
      for (let attempt = 1; ; attempt++) {
        const session = await abortable(desktops.forWorkspace(ctx.workspace, ctx.taskId), ctx.signal);
        const inputsBefore = session.sandbox.inputsSent;
        try {
          return await runAction(session, given, ctx, onFrame, options);
        } catch (error) {
          if (!(error instanceof ToolError) || error.code !== 'desktop_lost') throw error;
          // Lost after this action's input went out: its effect is unknown, whichever call saw the loss.
          if (session.sandbox.inputsSent > inputsBefore) throw effectUnknown(error);
          // Lost before it sent anything: nothing happened, so it runs on the task's next desktop, as a
          // step does that finds its desktop lost before it starts. Once: a second loss is the fleet's trouble.
          if (attempt > 1) throw error;
        }
      }
    },
  };
}
