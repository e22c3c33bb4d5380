import sharp from 'sharp';
import type { ModelRoute, ReceivedRequest, ScriptedAnswer } from './modelServer.js';

// A scripted computer-use model that finds its targets in the screenshots it is sent: it knows
// what to look for (a colour), never where it is. Answers are rendered in each protocol's own
// computer-use shape (Responses computer_call, Anthropic computer tool_use, UI-TARS text).

type Json = Record<string, unknown>;
/** An RGB colour a target is painted in. */
export type Rgb = readonly [number, number, number];
/** A point in the pixels of the screenshot the model was shown, and that screenshot's size. */
export interface SeenPoint {
  x: number;
  y: number;
  width: number;
  height: number;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The newest image in a request, as base64, in whatever shape the protocol carries it. */
export function latestImage(request: ReceivedRequest): string | undefined {
  const found: string[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isObject(v)) return;
    if (typeof v.image_url === 'string') found.push(v.image_url);
    if (isObject(v.image_url) && typeof v.image_url.url === 'string') found.push(v.image_url.url);
    if (v.type === 'base64' && typeof v.data === 'string') found.push(`data:;base64,${v.data}`);
    Object.values(v).forEach(visit);
  };
  visit(request.route === 'chat' ? request.body.messages : request.route === 'messages' ? request.body.messages : request.body.input);
  const last = found.at(-1);
  return last?.slice(last.indexOf(',') + 1);
}

/** The centre of the pixels of one colour in a screenshot (PNG/JPEG base64), or undefined. */
export async function findColour(image: string, colour: Rgb, tolerance = 40): Promise<SeenPoint | undefined> {
  const { data, info } = await sharp(Buffer.from(image, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let [minX, minY, maxX, maxY, count] = [Infinity, Infinity, -1, -1, 0];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (Math.abs(data[i]! - colour[0]) + Math.abs(data[i + 1]! - colour[1]) + Math.abs(data[i + 2]! - colour[2]) > tolerance) continue;
      count++;
      [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
    }
  if (count < 50) return undefined;
  return { x: Math.round((minX + maxX) / 2), y: Math.round((minY + maxY) / 2), width: info.width, height: info.height };
}

/** One step of a screen model's script. */
export type ScreenStep =
  | { do: 'functions'; calls: { name: string; arguments: Json }[] }
  | { do: 'screenshot' }
  | { do: 'click'; colour: Rgb }
  | { do: 'type'; text: string }
  | { do: 'answer'; text: string };

const norm = (v: number, extent: number): number => Math.round((v / extent) * 1000);

/** Renders one computer action in a protocol's own shape. */
function computerAnswer(route: ModelRoute, action: 'screenshot' | 'type' | 'click', arg: SeenPoint | string | undefined): ScriptedAnswer {
  if (route === 'chat') {
    const line =
      action === 'screenshot'
        ? 'wait()'
        : action === 'type'
          ? `type(content='${String(arg)}')`
          : `click(start_box='<|box_start|>(${norm((arg as SeenPoint).x, (arg as SeenPoint).width)},${norm((arg as SeenPoint).y, (arg as SeenPoint).height)})<|box_end|>')`;
    return { text: `Thought: next I ${action}.\nAction: ${line}` };
  }
  const p = arg as SeenPoint;
  const native =
    route === 'messages'
      ? action === 'screenshot'
        ? { action: 'screenshot' }
        : action === 'type'
          ? { action: 'type', text: arg }
          : { action: 'left_click', coordinate: [p.x, p.y] }
      : action === 'screenshot'
        ? { type: 'screenshot' }
        : action === 'type'
          ? { type: 'type', text: arg }
          : { type: 'click', x: p.x, y: p.y, button: 'left' };
  return { computer: [{ action: native }] };
}

/**
 * A reply function for `ModelServer.script`: each call answers the next step of `steps`, finding
 * click targets by colour in the newest screenshot of the request. `seen` records each click's
 * point and the screenshot size it was found in.
 */
export function screenModel(
  route: ModelRoute,
  steps: ScreenStep[],
  seen: SeenPoint[] = [],
): (r: ReceivedRequest) => Promise<ScriptedAnswer> {
  let next = 0;
  return async (request) => {
    const step = steps[next++];
    if (!step) throw new Error('the screen model has no step left');
    if (step.do === 'functions') return { toolCalls: step.calls };
    if (step.do === 'answer')
      return route === 'chat' ? { text: `Thought: done.\nAction: finished(content='${step.text}')` } : { text: step.text };
    if (step.do === 'screenshot' || step.do === 'type') return computerAnswer(route, step.do, step.do === 'type' ? step.text : undefined);
    const image = latestImage(request);
    if (!image) throw new Error(`step ${next}: the request carries no screenshot`);
    const point = await findColour(image, step.colour);
    if (!point) throw new Error(`step ${next}: colour ${step.colour.join(',')} is not on the screenshot`);
    seen.push(point);
    return computerAnswer(route, 'click', point);
  };
}
